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
