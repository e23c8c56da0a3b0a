# Cut down from jax-ml/jax#2783 ("float(x) does not work if x is a concrete tracer, but int(x) works")
# The report used the test-suite alias `api` (jax.api); kept here as `import jax as api`.
import jax as api


def func(x):
    return x if x >= 0. else -x


print(api.grad(func)(3.))
print(api.grad(func)(-2.))
