# A concrete jax.Array made in `with jax.ensure_compile_time_eval():` under jit, then used
# AFTER the block: which consumers read it as the concrete value, and which stage a JAX
# operation on it (the trace is active again there) and so get a tracer?
# flax#648: `split_indices = jnp.cumsum(jnp.array(sizes))` in the block, `jnp.split(y,
# split_indices)` after it, still fails: jnp.split iterates the array (an `unstack`).
import jax
import jax.numpy as jnp
import numpy as np

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # docs/probe.py, shared by the case folders
from probe import probe  # noqa: E402

x = jnp.arange(8.0)


def after_block(use, make):
    """jit of: v = make() in the block, then use(a, v) after it."""
    def body(a):
        with jax.ensure_compile_time_eval():
            v = make()
        return use(a, v)
    return jax.jit(body)(x)


scalar = lambda: jnp.minimum(4, 6)  # noqa: E731
vector = lambda: jnp.cumsum(jnp.array([2, 2, 2]))  # noqa: E731
shape = lambda: jnp.array([2, 4])  # noqa: E731

probe("int(v), v 0-d", lambda: after_block(lambda a, v: a[: int(v)], scalar))
probe("jnp.zeros(v), v 0-d", lambda: after_block(lambda a, v: jnp.zeros(v), scalar).shape)
probe("jnp.arange(v), v 0-d", lambda: after_block(lambda a, v: jnp.arange(v), scalar))
probe("range(v), v 0-d", lambda: after_block(lambda a, v: sum(a[i] for i in range(v)), scalar))
probe("a[:v], v 0-d", lambda: after_block(lambda a, v: a[:v], scalar))
probe("jnp.split(a, v), v 1-d", lambda: after_block(lambda a, v: jnp.split(a, v)[0], vector))
probe("jnp.split(a, v.tolist()), v 1-d", lambda: after_block(lambda a, v: jnp.split(a, v.tolist())[0], vector))
probe("jnp.split(a, np.asarray(v)), v 1-d", lambda: after_block(lambda a, v: jnp.split(a, np.asarray(v))[0], vector))
probe("a.reshape(v), v 1-d", lambda: after_block(lambda a, v: a.reshape(v).shape, shape))
probe("jnp.zeros(v), v 1-d", lambda: after_block(lambda a, v: jnp.zeros(v).shape, shape))


def _split_inside(a):
    with jax.ensure_compile_time_eval():
        v = jnp.cumsum(jnp.array([2, 2, 2]))
        parts = jnp.split(a, v)  # `a` is traced: the split itself is staged, its indices are not
    return parts[0]


probe("jnp.split in the block too", lambda: jax.jit(_split_inside)(x))

# jax#3620: pad widths and repeat counts. jnp.pad converts `pad_width` with NumPy and jnp.repeat
# reads `repeats` as a concrete value, so a concrete vector works after the block there.
widths = lambda: jnp.zeros((1, 2), dtype=jnp.int32).at[0, 1].set(3)  # noqa: E731
counts = lambda: jnp.full((8,), 2)  # noqa: E731
probe("jnp.pad(a, v), v 2-d widths", lambda: after_block(lambda a, v: jnp.pad(a, v).shape, widths))
probe("jnp.repeat(a, v), v 1-d counts", lambda: after_block(lambda a, v: jnp.repeat(a, v).shape, counts))
probe("a.repeat(v), v 1-d counts", lambda: after_block(lambda a, v: a.repeat(v).shape, counts))
probe("jnp.tile(a, v), v 1-d", lambda: after_block(lambda a, v: jnp.tile(a, v).shape, lambda: jnp.array([2])))
probe("jnp.broadcast_to(a, v), v 1-d", lambda: after_block(lambda a, v: jnp.broadcast_to(a, v).shape, lambda: jnp.array([2, 8])))


def _widths_over_statements(a, pad_size):
    """jax#3620's widths, built over three statements, all in the block."""
    with jax.ensure_compile_time_eval():
        npad = jnp.zeros((jnp.ndim(a), 2), dtype=jnp.int32)
        axis = jnp.ndim(a) - 1
        npad = npad.at[axis, 1].set(pad_size)
    return jnp.pad(a, npad)


probe("widths over three statements in the block", lambda: jax.jit(_widths_over_statements, static_argnums=1)(x, 2).shape)
