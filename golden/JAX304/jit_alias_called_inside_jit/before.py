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
  fN = jit_f(N)  # this is a non-static traced value
  return float(fN)  # fails because fN is not static
print(g2(1))
