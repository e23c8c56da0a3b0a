import functools
import jax
import jax.numpy as jnp


@functools.partial(jax.custom_vjp, nondiff_argnums=(0, 2))
def scaled_shift(a, x, b):
    return a * x + b


def _fwd(a, x, b):
    return a * x + b, None


def _bwd(a, b, res, g):
    return (a * g,)


scaled_shift.defvjp(_fwd, _bwd)


def model(params, x):
    return jnp.sum(scaled_shift(params["a"], x, params["b"]))


params = {"a": 2.0, "b": 0.5}
x = jnp.array([1.0, 2.0])
print(jax.jit(model)(params, x), jax.grad(model, argnums=1)(params, x))
