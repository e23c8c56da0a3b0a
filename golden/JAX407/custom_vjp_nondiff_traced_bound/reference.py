# Gradient clipping implemented with custom_vjp.  The clipping bound is an
# array that may be traced (it is an argument of the jitted step), so it is a
# regular custom_vjp argument rather than a nondiff_argnums one; the backward
# rule returns None as its cotangent.
from functools import partial

import jax
import jax.numpy as jnp


@jax.custom_vjp
def clip_gradient(x, bound):
    return x


def clip_gradient_fwd(x, bound):
    return x, bound


def clip_gradient_bwd(bound, g):
    return (jnp.clip(g, -bound, bound), None)


clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)


def loss(w, bound):
    return jnp.sum(clip_gradient(w, bound) * jnp.array([10.0, -0.5, 3.0]))


@jax.jit
def step(w, bound):
    return w - 0.1 * jax.grad(loss)(w, bound)


w = jnp.ones(3)
print([round(float(v), 4) for v in step(w, jnp.array(2.0))])
