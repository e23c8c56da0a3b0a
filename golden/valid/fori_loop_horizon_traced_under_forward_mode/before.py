# A rollout whose horizon T is traced under jit: fori_loop becomes a while loop, which forward-mode
# differentiation (jacfwd) goes through; only reverse mode would need a static horizon.
import jax
import jax.numpy as jnp
from jax import lax


def rollout(u, x0, T):
    def body(t, x):
        return 0.9 * x + u
    return lax.fori_loop(0, T, body, x0)


@jax.jit
def sensitivity(u, x0, T):
    return jax.jacfwd(rollout)(u, x0, T)


@jax.jit
def final_state(u, x0, T):
    return rollout(u, x0, T)


print(round(float(sensitivity(0.5, 1.0, 10)), 4))
print(round(float(final_state(0.5, 1.0, 10)), 4))
