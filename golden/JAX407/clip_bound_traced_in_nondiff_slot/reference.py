import functools

import jax
import jax.numpy as jnp


@jax.custom_vjp
def clip_gradient(x, bound):
    return x


def clip_gradient_fwd(x, bound):
    return x, bound


def clip_gradient_bwd(bound, g):
    return (jnp.clip(g, -bound, bound), jnp.zeros_like(bound))


clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)


def loss(w, x, bound):
    h = clip_gradient(w * x, bound)
    return jnp.sum(h ** 2)


@jax.jit
def step(w, x, bound):
    return w - 0.1 * jax.grad(loss)(w, x, bound)


w = jnp.array([1.0, -2.0, 3.0])
x = jnp.array([0.5, 1.0, 2.0])
for bound in (0.5, 2.0):
    print(bound, step(w, x, bound))
