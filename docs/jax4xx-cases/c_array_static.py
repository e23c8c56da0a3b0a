# JAX403: array-valued parameters listed in static_argnums / static_argnames.
import functools

import jax
import jax.numpy as jnp
import numpy as np

from _probe import probe

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
