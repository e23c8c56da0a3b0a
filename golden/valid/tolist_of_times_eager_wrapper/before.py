from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("times",))
def _integrate(rate, y0, times):
    ys = [y0]
    for t0, t1 in zip(times[:-1], times[1:]):
        ys.append(ys[-1] * jnp.exp(-rate * (t1 - t0)))
    return jnp.stack(ys)


def integrate(rate, y0, times):
    times = jnp.asarray(times, dtype=jnp.float32)
    times = tuple(times.tolist())  # the inner solver takes the save times as a static tuple
    return _integrate(rate, y0, times)


times = (0.0, 0.5, 1.0, 2.0)
print(integrate(0.3, 1.0, times))
# the public function is only called eagerly: its own jnp conversion is concrete there
print(integrate(0.1, 2.0, (0.0, 1.0)))
