# Cut down from https://github.com/jax-ml/jax/issues/20889
# A custom_jvp function takes a boolean mask that should not be differentiated,
# so the user marks it with nondiff_argnums; the mask travels through a scan carry.
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


def step(carry, _):
    return (func(*carry), carry[1]), None


def loss(x, mask):
    carry, _ = jax.lax.scan(step, (x, mask), [None] * 2, length=2)
    return carry[0].sum()


x = jnp.linspace(0.5, 5.0, 10)
mask = (jnp.arange(10) % 3) == 0

gradients = jax.grad(loss)(x, mask)
print(round(float(loss(x, mask)), 4), gradients.tolist())
