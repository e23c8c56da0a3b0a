# Cut down from jax-ml/jax#13838 ("`jax.lax.integer_pow` is not `jit` compilable.")
import jax

x: float = jax.numpy.arange(8, dtype=jax.numpy.float32)
y: int = 4

print(jax.make_jaxpr(jax.lax.integer_pow, static_argnums=1)(x, y))
