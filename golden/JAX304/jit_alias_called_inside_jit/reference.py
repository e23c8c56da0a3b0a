import jax
import jax.numpy as jnp
from functools import partial

def f(N):
  return N

jit_f = jax.jit(f, static_argnums=0)

@partial(jax.jit, static_argnums=0)
def g1(N):
  fN = f(N)  # this is a static int
  return float(fN)  # does not fail
print(g1(1))
# 1.0

@partial(jax.jit, static_argnums=0)
def g2(N):
  # Inside an outer jit the inner jit only adds a staging boundary, and a
  # nested jit turns its (static) output into a tracer.  Call the plain
  # Python function so the static int stays a Python int.
  fN = f(N)
  return float(fN)
print(g2(1))
