# Hand fix: an explicit while_loop counting up to n.
import jax
import jax.numpy as jnp


def double(c, _):
    return c * 2.0, None


@jax.jit
def grow(x, n):
    def cond(state):
        return state[0] < n

    def step(state):
        i, c = state
        return i + 1, double(c, None)[0]

    return jax.lax.while_loop(cond, step, (0, x))[1]


print(grow(jnp.ones(3), jnp.array(3)))
print(double(jnp.ones(2), None)[0])
