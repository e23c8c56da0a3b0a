"""E. A library function jitted at its call: its size argument must be static (jax 0.10.2, CPU).

Each row jits the function alone, then with the size's position static; "ok" or the error type.
"""
import jax
import jax.numpy as jnp
import numpy as np

key = jax.random.PRNGKey(0)
x = jnp.arange(6.0)
ROWS = [
    ("jax.nn.one_hot", jax.nn.one_hot, (jnp.array([0, 2]), 3), 1),
    ("jax.numpy.zeros", jnp.zeros, ((2, 3),), 0),
    ("jax.numpy.ones", jnp.ones, (4,), 0),
    ("jax.numpy.empty", jnp.empty, (4,), 0),
    ("jax.numpy.full", jnp.full, ((2,), 7.0), 0),
    ("jax.numpy.reshape", jnp.reshape, (x, (2, 3)), 1),
    ("jax.numpy.broadcast_to", jnp.broadcast_to, (jnp.ones(3), (2, 3)), 1),
    ("jax.numpy.tile", jnp.tile, (jnp.ones(2), 3), 1),
    ("jax.numpy.linspace", jnp.linspace, (0.0, 1.0, 5), 2),
    ("jax.numpy.fft.fft", jnp.fft.fft, (x, 8), 1),
    ("jax.numpy.fft.ifft", jnp.fft.ifft, (x, 8), 1),
    ("jax.numpy.fft.rfft", jnp.fft.rfft, (x, 8), 1),
    ("jax.numpy.fft.irfft", jnp.fft.irfft, (x, 8), 1),
    ("jax.random.normal", jax.random.normal, (key, (3,)), 1),
    ("jax.random.uniform", jax.random.uniform, (key, (3,)), 1),
    ("jax.random.randint", jax.random.randint, (key, (3,), 0, 10), 1),
    ("jax.random.bernoulli", jax.random.bernoulli, (key, 0.5, (3,)), 2),
    ("jax.random.split", jax.random.split, (key, 3), 1),
    ("jax.random.poisson", jax.random.poisson, (key, 2.0, (3,)), 2),
    ("jax.random.gamma", jax.random.gamma, (key, 2.0, (3,)), 2),
]
# Reductions and axis functions: (array, axis), the axis at 1 (jax#4412: `jit(jnp.sum)(x, 0)`).
m = jnp.arange(6.0).reshape(2, 3)
AXES = ("sum", "mean", "max", "min", "prod", "argmax", "argmin", "cumsum", "cumprod", "std", "var", "any",
        "all", "squeeze", "expand_dims", "flip", "sort", "argsort", "median", "nansum", "ptp", "count_nonzero")
for _name in AXES:
    ROWS.append((f"jax.numpy.{_name}", getattr(jnp, _name), (jnp.ones((2, 1, 3)) if _name == "squeeze" else m, 1), 1))
# Options that choose the algorithm, static on the library's own inner jit (jax#21730).
OPTIONS = [
    ("jax.numpy.linalg.norm", jnp.linalg.norm, (x, 1), 1),
    ("jax.numpy.linalg.norm", jnp.linalg.norm, (x, jnp.inf), 1),
    ("jax.numpy.linalg.norm", jnp.linalg.norm, (m, "fro"), 1),
    ("jax.numpy.linalg.norm", jnp.linalg.norm, (m, None, 1), 2),
    # The exponent of integer_pow is a parameter of the primitive: it must be a Python int.
    ("jax.lax.integer_pow", jax.lax.integer_pow, (x, 4), 1),
]
ROWS.extend(OPTIONS)


def outcome(run) -> str:
    try:
        run()
        return "ok"
    except Exception as error:  # noqa: BLE001 - the type is the finding
        return type(error).__name__


print("| function | `jax.jit(f)(...)` | `jax.jit(f, static_argnums=i)(...)` |")
print("|---|---|---|")
for name, fn, args, i in ROWS:
    plain = outcome(lambda: jax.jit(fn)(*args))
    static = outcome(lambda: jax.jit(fn, static_argnums=i)(*args))
    kind = "option" if any(args is row[2] for row in OPTIONS) else "axis" if name.split(".")[-1] in AXES else "size"
    shown = f", {args[i]!r}" if kind == "option" else ""
    print(f"| `{name}` ({kind} at {i}{shown}) | {plain} | {static} |")

# make_jaxpr traces like jit and takes static_argnums too (no static_argnames).
print()
print("| function | `jax.make_jaxpr(f)(...)` | `jax.make_jaxpr(f, static_argnums=i)(...)` |")
print("|---|---|---|")
for name, fn, args, i in [("jax.lax.integer_pow", jax.lax.integer_pow, (x, 4), 1), ("jax.nn.one_hot", jax.nn.one_hot, (jnp.arange(3), 3), 1)]:
    plain = outcome(lambda: jax.make_jaxpr(fn)(*args))
    static = outcome(lambda: jax.make_jaxpr(fn, static_argnums=i)(*args))
    print(f"| `{name}` (at {i}) | {plain} | {static} |")

# A size the library computes from the data when it is left out (`num_segments = np.max(ids) + 1`,
# jax/_src/ops/scatter.py): jitted, the ids are traced; the count computed in Python and passed
# static gives what the eager call gives (jax#6350).
print()
print("| function | eager | `jax.jit(f)(data, ids)` | `jax.jit(f, static_argnames=('num_segments',))(data, ids, num_segments=int(np.max(ids)) + 1)` |")
print("|---|---|---|---|")
data = np.array([[1, 2], [3, 4], [5, 6]])
ids = np.array([0, 0, 1])
for name in ("segment_sum", "segment_prod", "segment_max", "segment_min"):
    fn = getattr(jax.ops, name)
    eager = fn(data, ids).tolist()
    plain = outcome(lambda: jax.jit(fn)(data, ids))
    static = jax.jit(fn, static_argnames=("num_segments",))(data, ids, num_segments=int(np.max(ids)) + 1).tolist()
    print(f"| `jax.ops.{name}` | {eager} | {plain} | {static} |")
