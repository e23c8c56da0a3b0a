# Looks like a static value threaded through a scan carry, but the carried learning rate is only
# arithmetic and the jitted helper takes it as a traced argument: the program runs.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="clip")
def update(w, g, lr, clip):
    return w - lr * jnp.clip(g, -clip, clip)


def sgd_step(carry, g):
    w, lr = carry
    w = update(w, g, lr, clip=1.0)
    carry = (w, lr)
    return carry, w.sum()


@jax.jit
def train(w0, grads, lr):
    carry = (w0, lr)
    carry, sums = jax.lax.scan(sgd_step, carry, grads)
    w, lr = carry
    return w, sums


w, sums = train(jnp.ones(3), jnp.linspace(-2.0, 2.0, 12).reshape(4, 3), 0.1)
print(w, sums)
