# The working form of jax-ml/jax#5017 (what the thread's answer leads to): the
# step count is computed in Python from the Python t_span and max_dt the helper
# receives, so jnp.arange(steps) gets a concrete int even under jit; the
# traced coefficient only enters the right-hand side.
import jax
import jax.numpy as jnp
from jax.lax import scan


def jaxfixedsolve(rhs, t_span, y0, max_dt):

    delta_t = t_span[1] - t_span[0]
    steps = int(delta_t // max_dt)
    h = delta_t / steps

    def scan_func(carry, step):
        eval_time = t_span[0] + (h * step)
        return (carry + rhs(eval_time, carry)*h, None)

    yf = scan(scan_func, y0, jnp.arange(steps))[0]
    return yf


@jax.jit
def sim_function(coeff):

    def rhs(t, y):
        return coeff * y

    return jaxfixedsolve(rhs, t_span=[0, 0.5], y0=jnp.array(1., dtype=float), max_dt = 0.1)


print(round(float(sim_function(2.0)), 5))
print(round(float(jax.vmap(sim_function)(jnp.array([1.0, 2.0]))[1]), 5))
