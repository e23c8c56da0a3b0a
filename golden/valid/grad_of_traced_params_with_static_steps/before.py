from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("steps",))
def discounted_return(rewards, rate, steps):
    return jnp.sum(rewards[:steps] * jnp.exp(-rate * jnp.arange(steps)))


rewards = jnp.linspace(1.0, 2.0, 8)
# the differentiated `rate` is traced; the static `steps` is not differentiated
print(jax.grad(discounted_return, argnums=1)(rewards, 0.1, 5))
print(jax.value_and_grad(discounted_return, argnums=(0, 1))(rewards, 0.1, 5)[0])
