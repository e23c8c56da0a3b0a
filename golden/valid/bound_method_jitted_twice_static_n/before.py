# Look-alike of jax#15338 that works: one bound method jitted twice at module
# level, once with static_argnames and once with static_argnums, which counts
# from the first argument after `self`: `n` is static both times, `x` traced.
import jax
import jax.numpy as jnp


class Model:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x, n):
        return jnp.zeros(n) + x * self.scale


model = Model(2.0)
by_name = jax.jit(model.run, static_argnames="n")
print(by_name(jnp.ones(3), n=3))
by_position = jax.jit(model.run, static_argnums=(1,))
print(by_position(jnp.ones(3), 3))
