# The `k=` keyword of jax.numpy functions: which take a traced offset under jit, and which need it
# static? (heldout45's eye_dynamic_offset: `jnp.eye(n, k=k)` with a traced `k` runs since jax#21227.)
import jax
import jax.numpy as jnp

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # docs/probe.py, shared by the case folders
from probe import probe  # noqa: E402

m = jnp.arange(16.0).reshape(4, 4)
v = jnp.arange(3.0)


def traced_k(use):
    return jax.jit(use)(jnp.asarray(1))


probe("jnp.eye(4, k=k)", lambda: traced_k(lambda k: jnp.eye(4, k=k)).tolist())
probe("jnp.tri(4, k=k)", lambda: traced_k(lambda k: jnp.tri(4, k=k)).tolist())
probe("jnp.tril(m, k=k)", lambda: traced_k(lambda k: jnp.tril(m, k=k)).tolist())
probe("jnp.triu(m, k=k)", lambda: traced_k(lambda k: jnp.triu(m, k=k)).tolist())
probe("jnp.diag(v, k=k)", lambda: traced_k(lambda k: jnp.diag(v, k=k)).tolist())
probe("jnp.rot90(m, k=k)", lambda: traced_k(lambda k: jnp.rot90(m, k=k)).tolist())
probe("jnp.tril_indices(4, k=k)", lambda: traced_k(lambda k: jnp.tril_indices(4, k=k)[0]).tolist())
