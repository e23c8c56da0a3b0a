# The fused-gate split of flax#648 run eagerly: jnp.cumsum of the gate sizes is a concrete array
# outside any trace, and jnp.split takes it.
import jax
import jax.numpy as jnp


def split_gates(y, biases):
    split_indices = jnp.cumsum(jnp.array([b.shape[0] for b in biases[:-1]]))
    return jnp.split(y, split_indices, axis=-1)


biases = [jnp.zeros(3), jnp.zeros(3), jnp.zeros(2)]
y = jnp.arange(16.0).reshape(2, 8)
parts = split_gates(y, biases)
print([p.shape for p in parts], float(parts[-1].sum()))
