# Newton iterations until the residual is small, in a Python `while` under jit: the test depends on
# the data. Written as lax.while_loop, the loop carries (x, steps), the header comment kept.
import jax
import jax.numpy as jnp


@jax.jit
def newton_sqrt(a, tol):
    x = a
    steps = 0
    while jnp.abs(x * x - a) > tol:  # refine
        x = 0.5 * (x + a / x)
        steps += 1
    return x, steps


r, n = newton_sqrt(2.0, 1e-4)
print(round(float(r), 4), int(n))
