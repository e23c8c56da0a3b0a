# A: does a transform hand the function it wraps tracers, or the caller's own values?
# Each probe records the type of its first argument when called eagerly (no outer transform).
import jax, jax.numpy as jnp
from jax import lax
def kind(v):
    return "tracer" if isinstance(v, jax.core.Tracer) else type(v).__name__
seen = {}
def probe(name):
    def f(*args):
        seen[name] = kind(args[0])
        return args[0]
    return f
def go(name, thunk):
    try:
        thunk()
    except Exception as e:
        seen.setdefault(name, "error " + type(e).__name__)
    print(f"{name:28s} {seen.get(name)}")
x = jnp.ones(3)
go("jit", lambda: jax.jit(probe("jit"))(x))
go("vmap", lambda: jax.vmap(probe("vmap"))(x))
go("grad", lambda: jax.grad(lambda a: probe("grad")(a).sum())(x))
go("jacfwd", lambda: jax.jacfwd(probe("jacfwd"))(x))
go("jvp", lambda: jax.jvp(probe("jvp"), (x,), (x,)))
go("vjp", lambda: jax.vjp(probe("vjp"), x))
go("linearize", lambda: jax.linearize(probe("linearize"), x))
go("checkpoint", lambda: jax.checkpoint(probe("checkpoint"))(x))
go("remat", lambda: jax.remat(probe("remat"))(x))
go("eval_shape", lambda: jax.eval_shape(probe("eval_shape"), x))
go("make_jaxpr", lambda: jax.make_jaxpr(probe("make_jaxpr"))(x))
cj = jax.custom_jvp(probe("custom_jvp")); cj.defjvp(lambda p, t: (p[0], t[0]))
go("custom_jvp", lambda: cj(x))
cv = jax.custom_vjp(probe("custom_vjp")); cv.defvjp(lambda a: (a, None), lambda r, g: (g,))
go("custom_vjp", lambda: cv(x))
go("named_call", lambda: jax.named_call(probe("named_call"), name="n")(x))
go("lax.map", lambda: lax.map(probe("lax.map"), x))
go("associative_scan", lambda: lax.associative_scan(lambda a, b: probe("associative_scan")(a, b) + b, x))
go("scan", lambda: lax.scan(lambda c, a: (probe("scan")(c), a), 0.0, x))
go("fori_loop int bounds", lambda: lax.fori_loop(0, 3, lambda i, c: probe("fori_loop int bounds")(c), x))
go("while_loop", lambda: lax.while_loop(lambda c: c[0] < 3, lambda c: probe("while_loop")(c), x))
go("cond", lambda: lax.cond(True, probe("cond"), lambda a: a, x))
go("switch", lambda: lax.switch(0, [probe("switch"), lambda a: a], x))
go("pmap", lambda: jax.pmap(probe("pmap"))(x[:1]))
go("value_and_grad", lambda: jax.value_and_grad(lambda a: probe("value_and_grad")(a).sum())(x))
go("hessian", lambda: jax.hessian(lambda a: probe("hessian")(a).sum())(x))
go("jacrev", lambda: jax.jacrev(probe("jacrev"))(x))
