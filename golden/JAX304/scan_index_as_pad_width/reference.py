# Cut down from jax-ml/jax#27601: a wavelet transform scans over its levels, and the
# level the scan hands its body sets a padding width and a dilation.
import jax
import jax.numpy as jnp
import numpy as np

filt_len = 4
filt = jnp.array([[[0.5, 0.5, 0.25, -0.25]], [[0.5, -0.5, 0.25, 0.25]]])  # (O=2, I=1, T=4)


def scan_body(res_lo, current_level):
    dilation = 2 ** current_level
    padl = dilation * (filt_len // 2 - 1)
    padr = dilation * (filt_len // 2)
    pad_config = [(0, 0)] * (res_lo.ndim - 1) + [(padl, padr)]
    res_lo_padded = jnp.pad(res_lo, pad_config, mode="wrap")
    res = jax.lax.conv_general_dilated(
        lhs=res_lo_padded,
        rhs=filt,
        padding=[(0, 0)],
        window_strides=[1],
        rhs_dilation=[dilation],
        dimension_numbers=("NCT", "OIT", "NCT"),
    )
    res_lo_new, res_hi = jnp.split(res, 2, axis=1)
    return res_lo_new, res_hi.squeeze(1)


def modwt(data, level):
    res_lo = data
    details = []
    for current_level in range(level):
        res_lo, res_hi = scan_body(res_lo, current_level)
        details.append(res_hi)
    return res_lo, jnp.stack(details)


data = jnp.sin(jnp.arange(16.0) / 3.0).reshape(1, 1, 16)
lo, details = modwt(data, 3)
print(details.shape, round(float(jnp.sum(lo)), 4), round(float(jnp.sum(details ** 2)), 4))
