# A jax.Array computed eagerly, outside any trace (at module level, or in an object's
# `__init__` run eagerly), then read inside a jitted function: a concrete constant there.
# Which reads take its value, and which stage a JAX operation on it (a tracer)?
# flowjax#132: an equinox module keeps `split_idxs = jnp.cumsum(jnp.array(sizes))`, and its
# jitted `transform` calls `jnp.array_split(x, self.split_idxs)`. The NumPy twin of the
# constant (`np.cumsum(np.array(sizes))`) is read on the host by every such place.
import jax
import jax.numpy as jnp
import numpy as np

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # docs/probe.py, shared by the case folders
from probe import probe  # noqa: E402

x = jnp.arange(8.0)
IDX = jnp.cumsum(jnp.array([2, 3]))  # 1-d, eager
IDX_NP = np.cumsum(np.array([2, 3]))
N = jnp.array(4)  # 0-d, eager
N_NP = np.array(4)
SHAPE = jnp.array([2, 4])


def jitted(use):
    return jax.jit(use)(x)


probe("jnp.split(a, IDX), IDX 1-d", lambda: [p.shape for p in jitted(lambda a: jnp.split(a, IDX))])
probe("jnp.array_split(a, IDX), IDX 1-d", lambda: [p.shape for p in jitted(lambda a: jnp.array_split(a, IDX))])
probe("jnp.split(a, IDX_NP) (NumPy twin)", lambda: [p.shape for p in jitted(lambda a: jnp.split(a, IDX_NP))])
probe("jnp.array_split(a, IDX_NP) (NumPy twin)", lambda: [p.shape for p in jitted(lambda a: jnp.array_split(a, IDX_NP))])
probe("jnp.split(a, N), N 0-d", lambda: [p.shape for p in jitted(lambda a: jnp.split(a, N))])
probe("a.reshape(SHAPE), SHAPE 1-d", lambda: jitted(lambda a: a.reshape(SHAPE)).shape)
probe("jnp.zeros(N), N 0-d", lambda: jitted(lambda a: jnp.zeros(N) + a.sum()).shape)
probe("jnp.arange(N), N 0-d", lambda: jitted(lambda a: jnp.arange(N) + a.sum()).shape)
probe("a[:N], N 0-d", lambda: jitted(lambda a: a[:N]).shape)
probe("a[:N + 1], N 0-d", lambda: jitted(lambda a: a[: N + 1]).shape)
probe("jnp.arange(N + 1), N 0-d", lambda: jitted(lambda a: jnp.arange(N + 1) + a.sum()).shape)
probe("jnp.arange(0, N + 1), N 0-d", lambda: jitted(lambda a: jnp.arange(0, N + 1) + a.sum()).shape)
probe("range(N + 1), N 0-d", lambda: len(jitted(lambda a: [a[i] for i in range(N + 1)])))
probe("a[:int(N) + 1], N 0-d", lambda: jitted(lambda a: a[: int(N) + 1]).shape)
probe("a[:N_NP + 1] (NumPy twin)", lambda: jitted(lambda a: a[: N_NP + 1]).shape)
probe("jnp.arange(N_NP + 1) (NumPy twin)", lambda: jitted(lambda a: jnp.arange(N_NP + 1) + a.sum()).shape)
probe("a * N (data)", lambda: jitted(lambda a: a * N).tolist())
probe("a * N_NP (data, NumPy twin)", lambda: jitted(lambda a: a * N_NP).tolist())
probe("eager jnp.split(a, IDX)", lambda: [p.shape for p in jnp.split(x, IDX)])
probe("eager a[:N + 1]", lambda: x[: N + 1].shape)
