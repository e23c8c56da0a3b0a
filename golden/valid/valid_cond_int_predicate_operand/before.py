# Valid look-alike from jax-ml/jax#1379 (shoyer: "lax.cond should not fail ...
# when passed a integer"), in today's cond API: an integer predicate and an
# integer operand that the branches only use arithmetically.
import jax
from jax import lax


def f(n):
  return lax.cond(n % 2, lambda n: n, lambda n: -n, n)


print(f(12), f(13))
print(jax.jit(f)(12), jax.jit(f)(13))
