# A chain of layers kept in a Python list, applied by a fori_loop whose body indexes the list
# with the loop counter: a tracer cannot index a Python list.
import jax
import jax.numpy as jnp
from jax import lax


def make_layers(key, n, width):
    keys = jax.random.split(key, n)
    return [jnp.eye(width) + 0.1 * jax.random.normal(k, (width, width)) for k in keys]


@jax.jit
def apply_chain(layers, v):
    def body(i, v):
        return jnp.tanh(layers[i] @ v)
    return lax.fori_loop(0, len(layers), body, v)


layers = make_layers(jax.random.PRNGKey(0), 3, 4)
print(jnp.round(apply_chain(layers, jnp.ones(4)), 4))
