"""Which decorator order jits a staticmethod? (jax 0.10.2, CPU; jax#7702). Each row defines a class
with the decorators shown and calls the method; "ok" prints the result, otherwise the error."""
import jax, functools
import jax.numpy as jnp
rows = {}
def attempt(name, make):
    try:
        r = make()
        rows[name] = f"ok {float(r)}"
    except Exception as e:
        rows[name] = f"{type(e).__name__}: {str(e).splitlines()[0][:80]}"
def a():
    class F:
        @jax.jit
        @staticmethod
        def f(x): return x * 2
    return F.f(jnp.float32(1.0))
def b():
    class F:
        @staticmethod
        @jax.jit
        def f(x): return x * 2
    return F.f(jnp.float32(1.0))
def c():
    class F:
        @functools.partial(jax.jit, static_argnums=1)
        @staticmethod
        def f(x, n): return x * n
    return F.f(jnp.float32(1.0), 2)
def d():
    class F:
        @jax.jit
        @staticmethod
        def f(x): return x * 2
        def g(self, x): return self.f(x)
    return F().g(jnp.float32(1.0))
for n, m in [("@jax.jit over @staticmethod, F.f(x)", a), ("@staticmethod over @jax.jit, F.f(x)", b), ("@partial(jax.jit, static_argnums=1) over @staticmethod", c), ("@jax.jit over @staticmethod, self.f(x)", d)]:
    attempt(n, m)
for k, v in rows.items(): print(f"| {k} | {v} |")
