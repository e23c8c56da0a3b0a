# JAX401: a function jitted with a static parameter, traced again by an outer
# transformation that does not know the parameter is static.
import functools

import jax
import jax.numpy as jnp
from jax.tree_util import Partial

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # docs/probe.py, shared by the case folders
from probe import probe  # noqa: E402


def tile(x, n):
    return jnp.tile(x, n)


jtile = jax.jit(tile, static_argnums=1)
x = jnp.arange(2.0)

# make_jaxpr
probe("make_jaxpr(jf)(x, 2)", lambda: jax.make_jaxpr(jtile)(x, 2))
probe("make_jaxpr(jf, static_argnums=1)(x, 2)", lambda: str(jax.make_jaxpr(jtile, static_argnums=1)(x, 2)).count("tile"))
probe("make_jaxpr(jf, static_argnums=(1,))(x, 2) out shape", lambda: jax.make_jaxpr(jtile, static_argnums=(1,))(x, 2).out_avals[0].shape)
probe("make_jaxpr(jf)(x, n=2)", lambda: jax.make_jaxpr(jtile)(x, n=2))
probe("make_jaxpr(jf, static_argnums=1)(x, n=2)", lambda: jax.make_jaxpr(jtile, static_argnums=1)(x, n=2))
probe("make_jaxpr(partial(jf, n=2))(x)", lambda: jax.make_jaxpr(functools.partial(jtile, n=2))(x).out_avals[0].shape)
probe("make_jaxpr(lambda x: jf(x, 2))(x)", lambda: jax.make_jaxpr(lambda a: jtile(a, 2))(x).out_avals[0].shape)
import inspect
print("make_jaxpr parameters:", list(inspect.signature(jax.make_jaxpr).parameters))

# eval_shape
probe("eval_shape(jf, x, 2)", lambda: jax.eval_shape(jtile, x, 2))
probe("eval_shape(partial(jf, n=2), x)", lambda: jax.eval_shape(functools.partial(jtile, n=2), x).shape)
print("eval_shape parameters:", list(inspect.signature(jax.eval_shape).parameters))

# pmap (one CPU device: a leading axis of 1)
xs = x[None]
probe("pmap(jf)(xs, 2)", lambda: jax.pmap(jtile)(xs, 2))
probe("pmap(jf, in_axes=(0, None))(xs, 2)", lambda: jax.pmap(jtile, in_axes=(0, None))(xs, 2))
probe("pmap(jf, static_broadcasted_argnums=1)(xs, 2)", lambda: jax.pmap(jtile, static_broadcasted_argnums=1)(xs, 2))
probe("pmap(jf, static_broadcasted_argnums=(1,))(xs, 2)", lambda: jax.pmap(jtile, static_broadcasted_argnums=(1,))(xs, 2))
probe("pmap(jf, in_axes=(0, None), static_broadcasted_argnums=1)(xs, 2)", lambda: jax.pmap(jtile, in_axes=(0, None), static_broadcasted_argnums=1)(xs, 2))
probe("pmap(jf, static_broadcasted_argnums=1)(xs, n=2)", lambda: jax.pmap(jtile, static_broadcasted_argnums=1)(xs, n=2))
print("pmap parameters:", list(inspect.signature(jax.pmap).parameters))

# vmap
xv = jnp.arange(6.0).reshape(3, 2)
probe("vmap(jf)(xv, 2)", lambda: jax.vmap(jtile)(xv, 2))
probe("vmap(jf, in_axes=(0, None))(xv, 2)", lambda: jax.vmap(jtile, in_axes=(0, None))(xv, 2))
probe("vmap(jf, in_axes=(0, None))(xv, jnp.array(2))", lambda: jax.vmap(jtile, in_axes=(0, None))(xv, jnp.array(2)))
probe("vmap(lambda r: jf(r, 2))(xv)", lambda: jax.vmap(lambda r: jtile(r, 2))(xv))
probe("vmap(jf)(xv, n=2)", lambda: jax.vmap(jtile)(xv, n=2))
probe("vmap(jf, in_axes=(0, None))(xv, n=2)", lambda: jax.vmap(jtile, in_axes=(0, None))(xv, n=2))

# grad / jacfwd / checkpoint / jvp / linearize
def total(x, n):
    return jnp.tile(x, n).sum()


jtotal = jax.jit(total, static_argnums=1)
probe("grad(jf)(x, 2)", lambda: jax.grad(jtotal)(x, 2))
probe("grad(jf, argnums=(0, 1))(x, 2.0)", lambda: jax.grad(jtotal, argnums=(0, 1))(x, 2.0))
probe("jacfwd(jf)(x, 2)", lambda: jax.jacfwd(jtotal)(x, 2))
probe("checkpoint(jf)(x, 2)", lambda: jax.checkpoint(jtile)(x, 2))
probe("checkpoint(jf, static_argnums=(1,))(x, 2)", lambda: jax.checkpoint(jtile, static_argnums=(1,))(x, 2))
probe("jvp(partial(jf, n=2))", lambda: jax.jvp(functools.partial(jtile, n=2), (x,), (x,))[1])
probe("jvp(jf, (x, 2), (x, 0))", lambda: jax.jvp(jtile, (x, 2), (x, 0)))
probe("linearize(jf, x, 2)", lambda: jax.linearize(jtile, x, 2))

# an outer jit around the jitted function
probe("jit(jf)(x, 2)", lambda: jax.jit(jtile)(x, 2))
probe("jit(jf, static_argnums=1)(x, 2)", lambda: jax.jit(jtile, static_argnums=1)(x, 2))

# jax.tree_util.Partial handed into jit
@jax.jit
def apply_twice(x, fn):
    return fn(fn(x))


@functools.partial(jax.jit, static_argnums=(0,))
def repeat(p, x):
    return jnp.tile(x, (p,))


@jax.jit
def power(p, x):
    return x**p


probe("jit(apply)(x, Partial(jit_plain, 2))", lambda: apply_twice(x, Partial(power, 2)))
probe("jit(apply)(x, Partial(jit_static, 2))", lambda: apply_twice(x, Partial(repeat, 2)))
probe("jit(apply)(x, functools.partial(jit_static, 2))", lambda: apply_twice(x, functools.partial(repeat, 2)))
apply_static = jax.jit(apply_twice.__wrapped__, static_argnums=1)
probe("jit(apply, static_argnums=1)(x, Partial(jit_static, 2))", lambda: apply_static(x, Partial(repeat, 2)))
probe("jit(apply, static_argnums=1)(x, functools.partial(jit_static, 2))", lambda: apply_static(x, functools.partial(repeat, 2)))
probe("hash(Partial(repeat, 2))", lambda: hash(Partial(repeat, 2)) is not None)
probe("Partial(repeat, 2) == Partial(repeat, 2)", lambda: Partial(repeat, 2) == Partial(repeat, 2))
probe("functools.partial(repeat, 2) == functools.partial(repeat, 2)", lambda: functools.partial(repeat, 2) == functools.partial(repeat, 2))
probe("leaves of Partial(repeat, 2)", lambda: [type(l).__name__ for l in jax.tree_util.tree_leaves(Partial(repeat, 2))])
# Partial with the static value bound by keyword
probe("jit(apply)(x, Partial(jit_static, p=2))", lambda: apply_twice(x, Partial(repeat, p=2)))
# a closure over the static value, as a Partial of a plain function
probe("jit(apply)(x, Partial(lambda x: repeat(2, x)))", lambda: apply_twice(x, Partial(lambda a: repeat(2, a))))

# cache behaviour of marking the function argument static
traces = []


def apply_counted(x, fn):
    traces.append(1)
    return fn(x)


counted = jax.jit(apply_counted, static_argnums=1)
for _ in range(3):
    counted(x, Partial(repeat, 2))
print("static fn arg, fresh Partial each call: traces =", len(traces))
traces.clear()
same = Partial(repeat, 2)
for _ in range(3):
    counted(x, same)
print("static fn arg, one Partial object: traces =", len(traces))
traces.clear()
for _ in range(3):
    counted(x, functools.partial(repeat, 2))
print("static fn arg, fresh functools.partial each call: traces =", len(traces))

# vmap over a Partial holding a static value
probe("vmap(Partial(jit_static, 2))(xv)", lambda: jax.vmap(Partial(repeat, 2))(xv))
probe("vmap(functools.partial(jit_static, 2))(xv)", lambda: jax.vmap(functools.partial(repeat, 2))(xv))
probe("vmap(lambda r, f: f(r), in_axes=(0, None))(xv, Partial(repeat, 2))", lambda: jax.vmap(lambda r, f: f(r), in_axes=(0, None))(xv, Partial(repeat, 2)))

# ---------------------------------------------------------------------------
# more forms: binding the static value into the Partial's function, keyword
# calls, and which static option each transform honours

traces = []


@jax.jit
def apply_twice(x, fn):
    traces.append(1)
    return fn(fn(x))


probe("Partial(functools.partial(repeat, 2))", lambda: apply_twice(x, Partial(functools.partial(repeat, 2))))
traces.clear()
for _ in range(3):
    apply_twice(x, Partial(functools.partial(repeat, 2)))
print("fresh Partial(functools.partial) x3 traces", len(traces))
traces.clear()
g = Partial(functools.partial(repeat, 2))
for _ in range(3):
    apply_twice(x, g)
print("one object x3 traces", len(traces))
# mixed: static prefix and a dynamic array bound
@functools.partial(jax.jit, static_argnums=(0,))
def scaled(p, w, x):
    return jnp.tile(x, (p,)) * w
probe("Partial(scaled, 2, w)", lambda: apply_twice(x, Partial(scaled, 2, jnp.float32(3.0))))
probe("Partial(functools.partial(scaled, 2), w)", lambda: apply_twice(x, Partial(functools.partial(scaled, 2), jnp.float32(3.0))))
traces.clear()
for w in (1.0, 2.0, 3.0):
    apply_twice(x, Partial(functools.partial(scaled, 2), jnp.float32(w)))
print("fresh per call, w dynamic: traces", len(traces))
# what does the jit cache key compare for a Partial's func
print("treedefs of two Partial(functools.partial(repeat, 2)) equal:", jax.tree_util.tree_structure(Partial(functools.partial(repeat, 2))) == jax.tree_util.tree_structure(Partial(functools.partial(repeat, 2))))
print("treedefs of Partial(repeat, 2) and Partial(repeat, 3) equal:", jax.tree_util.tree_structure(Partial(repeat, 2)) == jax.tree_util.tree_structure(Partial(repeat, 3)))
# keyword-only static and make_jaxpr
@functools.partial(jax.jit, static_argnames="n")
def kw(x, *, n):
    return jnp.tile(x, n)
probe("make_jaxpr(kw)(x, n=2)", lambda: jax.make_jaxpr(kw)(x, n=2))
probe("make_jaxpr(partial(kw, n=2))(x)", lambda: jax.make_jaxpr(functools.partial(kw, n=2))(x).out_avals[0].shape)
@functools.partial(jax.jit, static_argnames="n")
def byname(x, n):
    return jnp.tile(x, n)
probe("make_jaxpr(byname)(x, 2)", lambda: jax.make_jaxpr(byname)(x, 2))
probe("make_jaxpr(byname, static_argnums=1)(x, 2)", lambda: jax.make_jaxpr(byname, static_argnums=1)(x, 2).out_avals[0].shape)
probe("make_jaxpr(byname, static_argnums=1)(x, n=2)", lambda: jax.make_jaxpr(byname, static_argnums=1)(x, n=2).out_avals[0].shape)
probe("make_jaxpr(byname, static_argnums=-1)(x, 2)", lambda: jax.make_jaxpr(byname, static_argnums=-1)(x, 2).out_avals[0].shape)
# jaxpr printed contents equal between fixes?
a = jax.make_jaxpr(byname, static_argnums=1)(x, 2)
b = jax.make_jaxpr(lambda v: byname(v, 2))(x)
print("jaxprs equal text:", str(a) == str(b))
print(a)
# make_jaxpr static_argnums and a Python float
@functools.partial(jax.jit, static_argnums=1)
def sc(x, s):
    return x * s
probe("make_jaxpr(sc)(x, 2.5)", lambda: jax.make_jaxpr(sc)(x, 2.5))
# jit(jf) with positional and argnames
probe("jit(byname, static_argnames='n')(x, 2)", lambda: jax.jit(byname, static_argnames="n")(x, 2))
# checkpoint with static keyword
probe("checkpoint(byname, static_argnums=(1,))(x, n=2)", lambda: jax.checkpoint(byname, static_argnums=(1,))(x, n=2))
probe("checkpoint(byname)(x, n=2)", lambda: jax.checkpoint(byname)(x, n=2))
probe("remat(byname, static_argnums=(1,))(x, 2)", lambda: jax.remat(byname, static_argnums=(1,))(x, 2))
# grad through checkpoint with static
probe("grad(checkpoint(f, static_argnums=(1,)))", lambda: jax.grad(lambda v: jax.checkpoint(byname, static_argnums=(1,))(v, 2).sum())(x))
# pmap with a static keyword-only
probe("pmap(kw, static_broadcasted_argnums=...)", lambda: jax.pmap(functools.partial(kw, n=2))(x[None]))
# negative static argnums on make_jaxpr
print("checkpoint signature:", inspect.signature(jax.checkpoint))
probe("checkpoint(byname, static_argnames='n')(x, n=2)", lambda: jax.checkpoint(byname, static_argnames="n")(x, n=2))
probe("checkpoint(byname, static_argnames='n')(x, 2)", lambda: jax.checkpoint(byname, static_argnames="n")(x, 2))
probe("checkpoint(byname, static_argnums=1)(x, 2)", lambda: jax.checkpoint(byname, static_argnums=1)(x, 2))
probe("checkpoint(kw, static_argnames='n')(x, n=2)", lambda: jax.checkpoint(kw, static_argnames="n")(x, n=2))
probe("pmap(byname, static_broadcasted_argnums=1)(xs, 2)", lambda: jax.pmap(byname, static_broadcasted_argnums=1)(x[None], 2))
probe("jit(kw)(x, n=2)", lambda: jax.jit(kw)(x, n=2))
probe("jit(kw, static_argnames='n')(x, n=2)", lambda: jax.jit(kw, static_argnames="n")(x, n=2))
probe("jit(byname, static_argnums=1)(x, n=2)", lambda: jax.jit(byname, static_argnums=1)(x, n=2))
probe("make_jaxpr(jf, static_argnums=1)(x, jnp.array(2))", lambda: jax.make_jaxpr(byname, static_argnums=1)(x, jnp.array(2)))
