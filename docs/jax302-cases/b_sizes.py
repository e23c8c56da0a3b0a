"""Which arguments of jnp/lax/random/ops functions must be concrete: each called under jit with the
argument traced (a parameter jit does not make static) and static."""
import jax
import jax.numpy as jnp
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # docs/probe.py, shared by the case folders
from probe import probe  # noqa: E402

x = jnp.arange(6.0)
key = jax.random.PRNGKey(0)
CASES = {
    "jnp.pad pad_width": lambda n: jnp.pad(x, n).shape,
    "jnp.triu k": lambda n: jnp.triu(jnp.ones((3, 3)), n),
    "jnp.diag k": lambda n: jnp.diag(x, n).shape,
    "jnp.roll shift": lambda n: jnp.roll(x, n),
    "jnp.repeat total_repeat_length": lambda n: jnp.repeat(x, 2, total_repeat_length=n),
    "jnp.repeat repeats": lambda n: jnp.repeat(x, n),
    "jnp.repeat repeats, total_repeat_length given (not a sink)": lambda n: jnp.repeat(x, n, total_repeat_length=12),
    "jnp.unique size": lambda n: jnp.unique(x, size=n),
    "jnp.nonzero size": lambda n: jnp.nonzero(x, size=n),
    "jnp.bincount length": lambda n: jnp.bincount(jnp.array([0, 1]), length=n),
    "jnp.resize new_shape": lambda n: jnp.resize(x, (n,)),
    "jnp.zeros_like shape": lambda n: jnp.zeros_like(x, shape=(n,)),
    "jnp.fft.fft n": lambda n: jnp.fft.fft(x, n),
    "lax.full shape": lambda n: jax.lax.full((n, 2), 0.0),
    "lax.iota size": lambda n: jax.lax.iota(jnp.int32, n),
    "lax.broadcast sizes": lambda n: jax.lax.broadcast(x, (n,)),
    "lax.broadcast_in_dim shape": lambda n: jax.lax.broadcast_in_dim(x, (n, 6), (1,)),
    "lax.reshape new_sizes": lambda n: jax.lax.reshape(x, (n, 3)),
    "lax.slice start": lambda n: jax.lax.slice(x, (n,), (4,)),
    "lax.top_k k": lambda n: jax.lax.top_k(x, n),
    "random.split num": lambda n: jax.random.split(key, n),
    "random.permutation int": lambda n: jax.random.permutation(key, n),
    "random.poisson shape": lambda n: jax.random.poisson(key, 1.0, (n,)),
    "ops.segment_sum num_segments": lambda n: jax.ops.segment_sum(x, jnp.array([0, 0, 1, 1, 2, 2]), n),
    "lax.conv window_strides": lambda n: jax.lax.conv(jnp.ones((1, 1, 4, 4)), jnp.ones((1, 1, 3, 3)), (n, n), "SAME"),
    "lax.conv_general_dilated window_strides": lambda n: jax.lax.conv_general_dilated(
        jnp.ones((1, 1, 4, 4)), jnp.ones((1, 1, 3, 3)), (n, n), "SAME"
    ),
    "lax.conv_general_dilated rhs_dilation": lambda n: jax.lax.conv_general_dilated(
        jnp.ones((1, 1, 4, 4)), jnp.ones((1, 1, 3, 3)), (1, 1), "SAME", rhs_dilation=(n, n)
    ),
    "lax.reduce_window window_dimensions": lambda n: jax.lax.reduce_window(
        jnp.ones((4, 4)), 0.0, jax.lax.add, (n, n), (1, 1), "VALID"
    ),
    # added 2026-12-07 from jax#4723: static parameters of the library's own inner jits
    "jnp.linalg.matrix_power n": lambda n: jnp.linalg.matrix_power(jnp.eye(2), n),
    "lax.integer_pow y": lambda n: jax.lax.integer_pow(x, n),
    "jnp.diff n": lambda n: jnp.diff(x, n),
    "jnp.round decimals": lambda n: jnp.round(x, n),
    "jnp.polyfit deg": lambda n: jnp.polyfit(x, x, n),
    "jnp.diagonal offset": lambda n: jnp.diagonal(jnp.ones((3, 3)), n),
    "jnp.rot90 k": lambda n: jnp.rot90(jnp.ones((2, 3)), n),
    "jnp.vander N": lambda n: jnp.vander(x, n),
    "jnp.partition kth": lambda n: jnp.partition(x, n),
    "jnp.argpartition kth": lambda n: jnp.argpartition(x, n),
    "jnp.trace offset (not a sink)": lambda n: jnp.trace(jnp.ones((3, 3)), n),
}
for label, body in CASES.items():
    probe(f"{label}: traced", lambda: jax.jit(body)(2))
    probe(f"{label}: static", lambda: jax.jit(body, static_argnums=0)(2))
