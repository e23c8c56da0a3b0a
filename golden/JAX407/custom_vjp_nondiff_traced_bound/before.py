# Gradient clipping implemented with custom_vjp.  The clipping bound is marked
# nondiff_argnums because we never differentiate with respect to it, and the
# whole training step is jitted with the bound as an ordinary argument.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_vjp, nondiff_argnums=(1,))
def clip_gradient(x, bound):
    return x


def clip_gradient_fwd(x, bound):
    return x, None


def clip_gradient_bwd(bound, res, g):
    return (jnp.clip(g, -bound, bound),)


clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)


def loss(w, bound):
    return jnp.sum(clip_gradient(w, bound) * jnp.array([10.0, -0.5, 3.0]))


@jax.jit
def step(w, bound):
    return w - 0.1 * jax.grad(loss)(w, bound)


w = jnp.ones(3)
print([round(float(v), 4) for v in step(w, jnp.array(2.0))])
