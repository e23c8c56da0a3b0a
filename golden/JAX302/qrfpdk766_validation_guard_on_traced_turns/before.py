# Cut-down analytical meander-inductor model (SAX-style PDK model).
# A new input check `if n_turns < 1: raise ValueError(...)` was added to both
# the model and the jitted analytical helper.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

MU_0 = 4e-7 * np.pi


@partial(jax.jit, inline=True)
def meander_inductor_inductance_analytical(
    n_turns, turn_length, wire_width, wire_gap, sheet_inductance, thickness
):
    """Total inductance (H) of a meander with n_turns parallel runs (lengths in um)."""
    if n_turns < 1:
        raise ValueError(f"n_turns must be >= 1, got {n_turns}")
    length = turn_length * 1e-6
    pitch = (wire_width + wire_gap) * 1e-6
    # kinetic / sheet contribution of the whole wire
    l_kin = sheet_inductance * n_turns * turn_length / wire_width
    # geometric self inductance of one straight run
    w_t = (wire_width + thickness) * 1e-6
    l_self = MU_0 * length / (2 * jnp.pi) * (jnp.log(2 * length / w_t) + 0.5)
    # mutual terms between runs k apart (alternating current direction);
    # a fixed offset table plus a mask keeps n_turns traceable
    offsets = jnp.arange(1, 501)
    mask = offsets < n_turns
    d = offsets * pitch
    m_k = MU_0 * length / (2 * jnp.pi) * (
        jnp.log(length / d + jnp.sqrt(1 + (length / d) ** 2))
        - jnp.sqrt(1 + (d / length) ** 2) + d / length
    )
    sign = jnp.where(offsets % 2 == 0, 1.0, -1.0)
    mutual = jnp.sum(jnp.where(mask, 2 * (n_turns - offsets) * sign * m_k, 0.0))
    return l_kin + n_turns * l_self + mutual


def meander_inductor(
    f=5e9,
    n_turns=5,
    turn_length=200.0,
    wire_width=2.0,
    wire_gap=2.0,
    sheet_inductance=1e-12,
    thickness=0.2,
    z0=50.0,
):
    """Series-inductor S-parameters of the meander."""
    if n_turns < 1:
        raise ValueError(f"n_turns must be >= 1, got {n_turns}")
    inductance = meander_inductor_inductance_analytical(
        n_turns, turn_length, wire_width, wire_gap, sheet_inductance, thickness
    )
    z = 1j * 2 * jnp.pi * f * inductance
    s11 = z / (z + 2 * z0)
    s21 = 2 * z0 / (z + 2 * z0)
    return {("o1", "o1"): s11, ("o1", "o2"): s21}


s = jax.jit(lambda n: meander_inductor(n_turns=n))(jnp.int32(5))
print(np.round(complex(s[("o1", "o2")]), 5))
print(np.round(complex(meander_inductor(n_turns=7)[("o1", "o2")]), 5))
