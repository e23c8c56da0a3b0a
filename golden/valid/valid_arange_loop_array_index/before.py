# Valid: a jitted loop over jnp.arange whose variable only indexes an array and scales a value.
# Each i is a tracer, and every use takes one: no finding.
import jax
import jax.numpy as jnp


@jax.jit
def running(x):
    acc = jnp.zeros(())
    for i in jnp.arange(x.shape[0]):
        acc = acc + x[i] * i
    return acc


print(float(running(jnp.arange(4.0))))
