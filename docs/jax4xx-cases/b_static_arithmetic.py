# JAX402: jnp arithmetic on static Python values, where a concrete int is needed.
# Under jit every jnp call is staged out: its result is a tracer even when every
# operand is a Python int, so using it as a size fails.
import functools
import math

import jax
import jax.numpy as jnp

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # docs/probe.py, shared by the case folders
from probe import probe  # noqa: E402

x = jnp.arange(10.0)


def under_jit(body, *static):
    """Run body(x, *static) under jit with the extra arguments static."""
    return jax.jit(body, static_argnums=tuple(range(1, 1 + len(static))))(x, *static)


print("-- is a jnp result on static operands a tracer under each transform?")
def kind(v):
    return "tracer" if isinstance(v, jax.core.Tracer) else type(v).__name__
seen = {}
def record(tag):
    def body(a):
        seen[tag] = kind(jnp.minimum(3, 5))
        return a
    return body
jax.jit(record("jit"))(x)
jax.vmap(record("vmap"))(x)
jax.grad(lambda a: record("grad")(a).sum())(x)
jax.make_jaxpr(record("make_jaxpr"))(x)
jax.lax.scan(lambda c, a: (record("scan")(c), None), x, None, length=1)
jax.eval_shape(record("eval_shape"), x)
jax.checkpoint(record("checkpoint"))(x)
record("eager")(x)
for tag, value in seen.items():
    print(f"jnp.minimum(3, 5) inside {tag}: {value}")
seen2 = {}
def shapes(a):
    seen2["jnp.shape(a)[0]"] = kind(jnp.shape(a)[0])
    seen2["jnp.size(a)"] = kind(jnp.size(a))
    seen2["jnp.ndim(a)"] = kind(jnp.ndim(a))
    seen2["a.shape[0] // 2"] = kind(a.shape[0] // 2)
    seen2["jnp.array(3)"] = kind(jnp.array(3))
    seen2["jnp.int32(3)"] = kind(jnp.int32(3))
    seen2["np.minimum(3, 5)"] = kind(__import__("numpy").minimum(3, 5))
    return a
jax.jit(shapes)(x)
for tag, value in seen2.items():
    print(f"{tag} inside jit: {value}")

def compile_time(a):
    with jax.ensure_compile_time_eval():
        print("jnp.minimum(3, 5) inside jit, in `with jax.ensure_compile_time_eval()`:", kind(jnp.minimum(3, 5)))
    from jax._src import core
    with core.eval_context():
        print("jnp.add(1, 1) inside jit, in `with core.eval_context()` (jax's api_test):", kind(jnp.add(1, 1)))
    return a


jax.jit(compile_time)(x)

print("-- the failures (issue 4798, 4449, 5208 shapes)")
probe("arange(jnp.minimum(a.shape[0], n)), n static", lambda: under_jit(lambda a, n: jnp.arange(jnp.minimum(a.shape[0], n)), 5))
probe("arange(min(a.shape[0], n)), n static", lambda: under_jit(lambda a, n: jnp.arange(min(a.shape[0], n)), 5))
probe("ones((jnp.add(a.size, 1),))", lambda: under_jit(lambda a: jnp.ones((jnp.add(a.size, 1),))))
probe("ones((a.size + 1,))", lambda: under_jit(lambda a: jnp.ones((a.size + 1,))).shape)
probe("linspace(0, 1, jnp.maximum(jnp.abs(n), 1) + 1), n static", lambda: under_jit(lambda a, n: jnp.linspace(0.0, 1.0, jnp.maximum(jnp.abs(n), 1) + 1), -4))
probe("linspace(0, 1, max(abs(n), 1) + 1), n static", lambda: under_jit(lambda a, n: jnp.linspace(0.0, 1.0, max(abs(n), 1) + 1), -4))
probe("zeros(jnp.floor_divide(n, 2)), n static", lambda: under_jit(lambda a, n: jnp.zeros(jnp.floor_divide(n, 2)), 7).shape)
probe("zeros(n // 2)", lambda: under_jit(lambda a, n: jnp.zeros(n // 2), 7).shape)
probe("range(jnp.minimum(n, 3))", lambda: under_jit(lambda a, n: sum(a[i] for i in range(jnp.minimum(n, 3))), 5))
probe("a[:jnp.minimum(n, 3)]", lambda: under_jit(lambda a, n: a[: jnp.minimum(n, 3)], 5))
probe("a[:min(n, 3)]", lambda: under_jit(lambda a, n: a[: min(n, 3)], 5))
probe("reshape(a, (jnp.floor_divide(a.size, 2), 2))", lambda: under_jit(lambda a: jnp.reshape(a, (jnp.floor_divide(a.size, 2), 2))))
probe("random.normal(key, (jnp.maximum(n, 1),))", lambda: under_jit(lambda a, n: jax.random.normal(jax.random.key(0), (jnp.maximum(n, 1),)), 3))
probe("scan(length=jnp.minimum(n, 4))", lambda: under_jit(lambda a, n: jax.lax.scan(lambda c, _: (c + 1, None), 0, None, length=jnp.minimum(n, 4))[0], 9))
probe("zeros(jnp.array(n).astype(int))", lambda: under_jit(lambda a, n: jnp.zeros(jnp.array(n).astype(int)), 3))
probe("zeros(jnp.array(n * 1.5).astype(int))", lambda: under_jit(lambda a, n: jnp.zeros(jnp.array(n * 1.5).astype(int)), 3))
probe("zeros(int(n * 1.5))", lambda: under_jit(lambda a, n: jnp.zeros(int(n * 1.5)), 3).shape)
probe("zeros(jnp.divide(n, 2).astype(int))", lambda: under_jit(lambda a, n: jnp.zeros(jnp.divide(n, 2).astype(int)), 7))
probe("int(jnp.minimum(n, 3))", lambda: under_jit(lambda a, n: a * int(jnp.minimum(n, 3)), 5))
probe("jnp.minimum(n, 3) used as an array only", lambda: under_jit(lambda a, n: a * jnp.minimum(n, 3), 5))
probe("jnp.minimum of a traced value", lambda: jax.jit(lambda a, n: jnp.arange(jnp.minimum(n, 3)))(x, 5))
probe("eager: arange(jnp.minimum(10, 5))", lambda: jnp.arange(jnp.minimum(10, 5)))
probe("vmap only: zeros(jnp.minimum(3, 5)) per row", lambda: jax.vmap(lambda r: r + jnp.zeros(jnp.minimum(3, 5)).sum())(x))

print("-- where Python's operators and jnp's differ (the rewrite must not change a value)")
probe("jnp.floor_divide(-7, 2) vs -7 // 2", lambda: (jnp.floor_divide(-7, 2).item(), -7 // 2))
probe("jnp.divide(-7, 2).astype(int) vs -7 // 2 vs int(-7 / 2)", lambda: (jnp.divide(-7, 2).astype(int).item(), -7 // 2, int(-7 / 2)))
probe("jnp.divide(2**25 + 3, 1).astype(int) vs (2**25 + 3) // 1", lambda: (jnp.divide(2**25 + 3, 1).astype(int).item(), (2**25 + 3) // 1))
probe("jnp.array(2.9999999999).astype(int) vs int(2.9999999999)", lambda: (jnp.array(2.9999999999).astype(int).item(), int(2.9999999999)))
probe("jnp.array(7).astype(int) vs int(7)", lambda: (jnp.array(7).astype(int).item(), int(7)))
probe("jnp.minimum(3, 2.5) vs min(3, 2.5)", lambda: (jnp.minimum(3, 2.5).item(), min(3, 2.5)))
probe("jnp.abs(-3) vs abs(-3)", lambda: (jnp.abs(-3).item(), abs(-3)))
probe("jnp.minimum(2**31, 1)", lambda: jnp.minimum(2**31, 1))
probe("jnp.remainder(-7, 3) vs -7 % 3", lambda: (jnp.remainder(-7, 3).item(), -7 % 3))
probe("jnp.mod(-7, 3) vs -7 % 3", lambda: (jnp.mod(-7, 3).item(), -7 % 3))
probe("jnp.power(2, 10) vs 2 ** 10", lambda: (jnp.power(2, 10).item(), 2**10))
probe("jnp.ceil(7 / 2).astype(int) vs math.ceil(7 / 2)", lambda: (jnp.ceil(7 / 2).astype(int).item(), math.ceil(7 / 2)))
probe("type(min(3, 5)) in a shape and jnp.minimum dtype", lambda: (jnp.zeros(min(3, 5)).shape, str(jnp.minimum(3, 5).dtype), jnp.minimum(3, 5).weak_type))
probe("a * min(n, 3) == a * jnp.minimum(n, 3) (values and dtype)", lambda: ((x * min(5, 3)).dtype == (x * jnp.minimum(5, 3)).dtype, bool(((x * min(5, 3)) == (x * jnp.minimum(5, 3))).all())))
probe("min(n, 3).astype(int)", lambda: min(5, 3).astype(int))


print("-- B4: a Python loop over jnp.arange of static ints, the loop variable indexing a tuple")
STRIDES = (10, 20, 30)
probe("jit: for i in jnp.arange(3): STRIDES[i]", lambda: jax.jit(lambda a: a + sum(STRIDES[i] for i in jnp.arange(3)))(0))
probe("jit: for i in jnp.arange(3)[::-1]: STRIDES[i]", lambda: jax.jit(lambda a: a + sum(STRIDES[i] for i in jnp.arange(3)[::-1]))(0))
probe("jit: for i in range(3)[::-1]: STRIDES[i]", lambda: jax.jit(lambda a: a + sum(STRIDES[i] for i in range(3)[::-1]))(0))
probe("eager: for i in jnp.arange(3): STRIDES[i]", lambda: sum(STRIDES[i] for i in jnp.arange(3)))
probe("jit: x[i] for i in jnp.arange(3) vs range(3)", lambda: [float(jax.jit(lambda a: sum(a[i] for i in it()))(x)) for it in (lambda: jnp.arange(3), lambda: range(3))])
probe("list(range(5)[1:4:2]), list(range(3)[::-1]) vs jnp.arange", lambda: (list(range(5)[1:4:2]), jnp.arange(5)[1:4:2].tolist(), list(range(3)[::-1]), jnp.arange(3)[::-1].tolist()))
