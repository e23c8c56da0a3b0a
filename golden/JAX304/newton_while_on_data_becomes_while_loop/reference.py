import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def newton_sqrt(a, tol):
    def cond(state):
        x, _ = state
        return jnp.abs(x * x - a) > tol

    def step(state):
        x, n = state
        return 0.5 * (x + a / x), n + 1

    return lax.while_loop(cond, step, (a, 0))


r, n = newton_sqrt(2.0, 1e-4)
print(round(float(r), 4), int(n))
