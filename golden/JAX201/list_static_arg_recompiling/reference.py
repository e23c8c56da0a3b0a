# Hand fix for jax-ml/jax#2813: y is only indexed, so it need not be static at
# all; a list of ints is a pytree and is traced like any other argument.
import jax


def g(x, y):
  print("recompiling")
  return x + y[0]


f = jax.jit(g)
print(f(1, [2, 3]))
print(f(1, [2, 3]))
