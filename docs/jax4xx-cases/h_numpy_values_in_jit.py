# A NumPy array made inside a jitted function (JAX304's NumPy twin, `repairs.numpy_integers`):
# which places read it concretely, and which hand it to a JAX operation that stages it again?
# jax-ml/jax#5280: `jnp.nonzero(a)` of a constant `a` under jit fails whether `a` is built with
# jnp or with NumPy: nonzero converts its data to a jax array, which the trace stages.
import jax
import jax.numpy as jnp
import numpy as np

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # docs/probe.py, shared by the case folders
from probe import probe  # noqa: E402

x = jnp.arange(12.0)


def in_jit(use):
    return jax.jit(lambda a: use(a))(x)


v = lambda: np.array([3, 4])  # noqa: E731
probe("x.reshape(v)", lambda: in_jit(lambda a: a.reshape(v())).shape)
probe("jnp.zeros(v)", lambda: in_jit(lambda a: jnp.zeros(v())).shape)
probe("jnp.broadcast_to(a[:4], v)", lambda: in_jit(lambda a: jnp.broadcast_to(a[:4], v())).shape)
probe("jax.random.normal(k, v)", lambda: in_jit(lambda a: jax.random.normal(jax.random.PRNGKey(0), v())).shape)
probe("jnp.tile(a, v[:1])", lambda: in_jit(lambda a: jnp.tile(a, v()[:1])).shape)
probe("jnp.split(a, v)", lambda: in_jit(lambda a: jnp.split(a, v())[0]))
probe("jnp.pad(a, v)", lambda: in_jit(lambda a: jnp.pad(a, v())).shape)
probe("jnp.repeat(a[:2], v)", lambda: in_jit(lambda a: jnp.repeat(a[:2], v())).shape)
probe("jnp.arange(v[0])", lambda: in_jit(lambda a: jnp.arange(v()[0])))
probe("a[: v[0]]", lambda: in_jit(lambda a: a[: v()[0]]))
probe("int(v[0])", lambda: in_jit(lambda a: a[: int(v()[0])]))
probe("jnp.sum(a.reshape(3, 4), axis=v[0] - 3)", lambda: in_jit(lambda a: jnp.sum(a.reshape(3, 4), axis=v()[0] - 3)))
probe("jnp.nonzero(v) (jax#5280)", lambda: in_jit(lambda a: jnp.nonzero(np.array([0, 1, 2]))))
probe("jnp.nonzero(v, size=2)", lambda: in_jit(lambda a: jnp.nonzero(np.array([0, 1, 2]), size=2)))
probe("jnp.unique(v)", lambda: in_jit(lambda a: jnp.unique(v())))
probe("jnp.where(v > 3) (one argument)", lambda: in_jit(lambda a: jnp.where(v() > 3)))
