# Cut down from jax-ml/jax#2813 ("Remove object identity equality semantics from
# `static_argnums`."): a list passed in the static slot of a jit applied by
# assignment. In 2020 it recompiled on every call; today jit refuses to hash it.
import jax


def g(x, y):
  print("recompiling")
  return x + y[0]


f = jax.jit(g, static_argnums=(1,))
print(f(1, (2, 3)))
print(f(1, (2, 3)))
