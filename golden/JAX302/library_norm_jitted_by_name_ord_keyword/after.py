# Cut down from jax-ml/jax#21730 ("TracerBoolConversionError when jitting jax.numpy.linalg.norm").
import jax
import jax.numpy as jnp

a_fun = jax.jit(jnp.linalg.norm, static_argnames=("ord",))
x = jnp.array([1.0, 1.0])
print(round(float(a_fun(x, ord=1)), 4))
print(round(float(a_fun(x, ord=jnp.inf)), 4))
print(round(float(a_fun(x, ord=3.5)), 4))
