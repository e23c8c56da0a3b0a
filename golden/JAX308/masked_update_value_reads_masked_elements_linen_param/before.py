from typing import Tuple

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax

Array = jnp.ndarray


def wrap_phase(phase: Array, limits: Tuple[float, float] = (-jnp.pi, jnp.pi)) -> Array:
    """
    Wraps values of ``phase`` to the range given by ``limits``.

    Args:
        phase: The phase mask to wrap (in radians).
        limits: A tuple defining the minimum and maximum value that ``phase``
            will be wrapped to.
    """
    phase_min, phase_max = limits
    assert phase_min < phase_max, "Lower limit needs to be smaller than upper limit."
    min_indices = phase < phase_min
    max_indices = phase > phase_max
    phase = phase.at[min_indices].set(
        phase[min_indices]
        + 2 * jnp.pi * (1 + (phase_min - phase[min_indices]) // (2 * jnp.pi))
    )
    phase = phase.at[max_indices].set(
        phase[max_indices]
        - 2 * jnp.pi * (1 + (phase[max_indices] - phase_max) // (2 * jnp.pi))
    )
    return phase


class SpatialLightModulator(nn.Module):
    shape: Tuple[int, int]
    phase_range: Tuple[float, float]

    @nn.compact
    def __call__(self, field: Array) -> Array:
        phase = self.param("phase", nn.initializers.uniform(4 * jnp.pi), self.shape)
        phase = wrap_phase(phase, self.phase_range)
        return field * jnp.exp(1j * phase)


def focal_plane(field):
    return jnp.fft.fftshift(jnp.fft.fft2(field)) / field.shape[0]


slm = SpatialLightModulator(shape=(32, 32), phase_range=(-jnp.pi, jnp.pi))
field = jnp.ones((32, 32), dtype=jnp.complex64)
params = slm.init(jax.random.PRNGKey(0), field)
optimizer = optax.adam(1e-1)
opt_state = optimizer.init(params)


@jax.jit
def step(params, opt_state):
    def loss_fn(params):
        intensity = jnp.abs(focal_plane(slm.apply(params, field))) ** 2
        return -intensity[8, 8] / jnp.sum(intensity)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = optimizer.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


for i in range(20):
    params, opt_state, loss = step(params, opt_state)
print("fraction of power in target spot:", -float(loss))
