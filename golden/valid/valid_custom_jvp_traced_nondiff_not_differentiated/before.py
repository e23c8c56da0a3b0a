# Looks like jax#20889 (a mask in a custom_jvp's nondiff_argnums, traced), but nothing
# differentiates the function: custom_jvp takes a tracer in a nondiff slot under jit and vmap.
import jax
from jax import numpy as jnp


def func_fwd(arr, mask):
    return arr * mask


def func_jvp(mask, primals, tangents):
    def f(arr):
        return arr * mask
    return jax.jvp(f, primals, tangents)


func = jax.custom_jvp(func_fwd, nondiff_argnums=(1,))
func.defjvp(func_jvp)


@jax.jit
def apply(x, mask):
    return func(x, mask).sum()


x = jnp.linspace(0.5, 5.0, 10)
mask = (jnp.arange(10) % 3) == 0
print(round(float(apply(x, mask)), 4))
print(jax.vmap(func, in_axes=(None, 0))(x, jnp.stack([mask, ~mask])).sum(axis=1).tolist())
