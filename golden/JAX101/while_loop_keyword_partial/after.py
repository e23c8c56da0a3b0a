# while_loop whose body is bound with a keyword partial: the carry lands in N's slot.
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=(0,))
def body(N, state):
    total, k = state
    return total + N, k + 1


def keep_going(state):
    return state[1] < 3


total, k = jax.lax.while_loop(keep_going, functools.partial(body, 5), (jnp.zeros(2), 0))
print(total, k)
