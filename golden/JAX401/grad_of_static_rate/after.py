from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("steps",))
def _decay(rate, steps):
    return jnp.exp(-rate * jnp.arange(steps))


@partial(jax.jit, static_argnames=("steps",))
def discounted_return(rewards, rate, steps):
    return jnp.sum(rewards[:steps] * _decay(rate, steps))


rewards = jnp.linspace(1.0, 2.0, 8)
print(discounted_return(rewards, 0.1, 5))
print(jax.grad(discounted_return, argnums=1)(rewards, 0.1, 5))
