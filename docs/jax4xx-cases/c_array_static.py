# JAX403: array-valued parameters listed in static_argnums / static_argnames.
import functools

import jax
import jax.numpy as jnp
import numpy as np

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # docs/probe.py, shared by the case folders
from probe import probe  # noqa: E402

x = jnp.arange(3.0)


def scale(x, w):
    return x * w + w.sum()


probe("static w, called with jnp.array", lambda: jax.jit(scale, static_argnums=1)(x, jnp.array([1.0, 2.0, 3.0])))
probe("static w, called with np.array", lambda: jax.jit(scale, static_argnums=1)(x, np.array([1.0, 2.0, 3.0])))
probe("static w, called with a jnp scalar", lambda: jax.jit(scale, static_argnames="w")(x, jnp.float32(2.0)))
probe("static w, called with np.float32 scalar", lambda: jax.jit(scale, static_argnums=1)(x, np.float32(2.0)))
probe("static w, called with a PRNG key", lambda: jax.jit(lambda x, k: x + jax.random.normal(k, x.shape), static_argnums=1)(x, jax.random.PRNGKey(0)))
probe("static w, called with a typed key", lambda: jax.jit(lambda x, k: x + jax.random.normal(k, x.shape), static_argnums=1)(x, jax.random.key(0)))
probe("static w, called with a list", lambda: jax.jit(scale, static_argnums=1)(x, [1.0, 2.0, 3.0]))
probe("w dynamic (static dropped), jnp.array", lambda: jax.jit(scale)(x, jnp.array([1.0, 2.0, 3.0])))
probe("w dynamic, np.array", lambda: jax.jit(scale)(x, np.array([1.0, 2.0, 3.0])))
probe("eager reference", lambda: scale(x, jnp.array([1.0, 2.0, 3.0])))
probe("w dynamic, PRNG key", lambda: jax.jit(lambda x, k: x + jax.random.normal(k, x.shape))(x, jax.random.PRNGKey(0)))

print("-- uses that need the value concrete once it is dynamic")
probe("dynamic w, w.shape / w.ndim / len(w) / w.dtype", lambda: jax.jit(lambda x, w: x * w.shape[0] * w.ndim * len(w) + jnp.zeros(w.shape, w.dtype))(x, jnp.ones(3)))
probe("dynamic w, jnp.zeros(w.shape[0])", lambda: jax.jit(lambda x, w: jnp.zeros(w.shape[0]))(x, jnp.ones(3)))
probe("dynamic w, for row in w", lambda: jax.jit(lambda x, w: sum(r for r in w))(x, jnp.ones(3)))
probe("dynamic w, x[w.astype(int)] (gather)", lambda: jax.jit(lambda x, w: x[w.astype(int)])(x, jnp.array([2.0, 0.0])))
probe("dynamic w, if w.sum() > 0", lambda: jax.jit(lambda x, w: x if w.sum() > 0 else -x)(x, jnp.ones(3)))
probe("dynamic w, int(w[0])", lambda: jax.jit(lambda x, w: jnp.zeros(int(w[0])))(x, jnp.array([2])))
probe("dynamic w, w.tolist()", lambda: jax.jit(lambda x, w: x * len(w.tolist()))(x, jnp.ones(3)))
probe("dynamic w, np.asarray(w)", lambda: jax.jit(lambda x, w: x * np.asarray(w).sum())(x, jnp.ones(3)))
probe("dynamic w, np.sum(w) (numpy function)", lambda: jax.jit(lambda x, w: x * np.sum(w))(x, jnp.ones(3)))
probe("dynamic w, range(w[0])", lambda: jax.jit(lambda x, w: x * sum(range(w[0])))(x, jnp.array([3])))
probe("dynamic w, jnp.zeros(w[0])", lambda: jax.jit(lambda x, w: jnp.zeros(w[0]))(x, jnp.array([3])))
probe("dynamic w, x[:w[0]]", lambda: jax.jit(lambda x, w: x[: w[0]])(x, jnp.array([2])))
probe("dynamic w, {w: 1} (hash)", lambda: jax.jit(lambda x, w: x * {w: 1}[w])(x, jnp.ones(3)))
probe("dynamic w, w.item()", lambda: jax.jit(lambda x, w: x * w.item())(x, jnp.float32(2.0)))

print("-- the old workaround: a hashable copy (tuple) keeps it static")
probe("static, tuple(np.asarray(w).tolist())", lambda: jax.jit(lambda x, w: x * jnp.asarray(w), static_argnums=1)(x, tuple(np.asarray(jnp.array([1.0, 2.0, 3.0])).tolist())))

print("-- dtypes: dropping static changes nothing a Python float would")
probe("static Python float vs dynamic weak float", lambda: (jax.jit(lambda x, s: x * s, static_argnums=1)(x, 2.0).dtype, jax.jit(lambda x, s: x * s)(x, 2.0).dtype))
probe("jnp.float32 array static -> dtype if dynamic", lambda: str(jax.jit(lambda x, s: x * s)(x.astype(jnp.bfloat16), jnp.float32(2.0)).dtype))

print("-- the cache: a dynamic array argument compiles once for every value of one shape")
traces = []
def counted(x, w):
    traces.append(1)
    return x * w
cj = jax.jit(counted)
for v in (1.0, 2.0, 3.0):
    cj(x, jnp.array([v, v, v]))
print("dynamic w, three values of one shape: traces =", len(traces))

print("-- keyword arguments of jnp functions and array methods that must be static")
probe("dynamic a, jnp.sum(x, axis=a)", lambda: jax.jit(lambda x, a: jnp.sum(x, axis=a))(jnp.ones((2, 2)), 0))
probe("dynamic a, x.sum(axis=a)", lambda: jax.jit(lambda x, a: x.sum(axis=a))(jnp.ones((2, 2)), 0))
probe("dynamic a, jnp.sum(x, a)", lambda: jax.jit(lambda x, a: jnp.sum(x, a))(jnp.ones((2, 2)), 0))
probe("dynamic d, x.astype(d) with d a dtype", lambda: jax.jit(lambda x, d: x.astype(d))(jnp.ones(2), jnp.float32))

print("-- what NumPy's and jax.numpy's metadata and dtype functions return hashes (JAX201, JAX403 screens)")
for spelled, thunk in [
    ("np.shape(a)", lambda: np.shape(np.ones((2, 3)))),
    ("np.ndim(a)", lambda: np.ndim(np.ones(3))),
    ("np.size(a)", lambda: np.size(np.ones(3))),
    ("np.issubdtype(t, np.floating)", lambda: np.issubdtype(np.float32, np.floating)),
    ("np.dtype('float32')", lambda: np.dtype("float32")),
    ("np.result_type(f4, i4)", lambda: np.result_type(np.float32, np.int32)),
    ("np.promote_types('f4', 'i4')", lambda: np.promote_types("f4", "i4")),
    ("np.finfo(np.float32)", lambda: np.finfo(np.float32)),
    ("np.iinfo(np.int32)", lambda: np.iinfo(np.int32)),
    ("jnp.shape(a)", lambda: jnp.shape(jnp.ones((2, 3)))),
    ("jnp.ndim(a)", lambda: jnp.ndim(jnp.ones(3))),
    ("jnp.size(a)", lambda: jnp.size(jnp.ones(3))),
    ("jnp.issubdtype(t, jnp.floating)", lambda: jnp.issubdtype(jnp.float32, jnp.floating)),
    ("jnp.dtype('float32')", lambda: jnp.dtype("float32")),
    ("jnp.result_type(jnp.float32)", lambda: jnp.result_type(jnp.float32)),
    ("jnp.promote_types('f4', 'i4')", lambda: jnp.promote_types("f4", "i4")),
    ("jnp.finfo(jnp.float32)", lambda: jnp.finfo(jnp.float32)),
    ("jnp.iinfo(jnp.int32)", lambda: jnp.iinfo(jnp.int32)),
]:
    value = thunk()
    probe(
        f"{spelled} -> {type(value).__name__}, static",
        lambda value=value: jax.jit(lambda x, s: x, static_argnums=1)(x, value),
    )
