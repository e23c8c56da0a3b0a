# Valid look-alike from jax-ml/jax#12653 (jax.jacobian: propagate function
# signature to transformed function): jit over jacrev with static_argnames naming
# a parameter of the inner function. Before that PR jacrev hid the signature and
# b was traced (ConcretizationTypeError); today the name resolves and b stays a
# Python bool.
import jax

def f(a, b):
  return a if b else 0.0

print(jax.jit(jax.grad(f), static_argnames=['b'])(1.0, False))
print(jax.jit(jax.jacrev(f), static_argnames=['b'])(1.0, False))
print(jax.jit(jax.jacrev(f), static_argnames=['b'])(1.0, True))
