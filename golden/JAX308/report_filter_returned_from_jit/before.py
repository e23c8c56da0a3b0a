import jax
import jax.numpy as jnp


@jax.jit
def log_positive(thing):
    # drop the non-positive entries, then continue the (differentiable) workflow
    thing = thing[thing > 0]
    return jnp.log(thing) * 2.0


thing = jnp.array([-1.5, 0.5, 2.0, -0.1, 4.0, 0.0])
out = log_positive(thing)
print([round(float(v), 4) for v in out])
