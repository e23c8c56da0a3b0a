# Look-alike of jax#15338 that works: a bound method is jitted with
# static_argnums=1, which counts from the first argument after `self`, so the
# static argument is the shape the method draws with.
import jax


class Sampler:
    def __init__(self, scale):
        self.scale = scale

    def draw(self, key, shape):
        return self.scale * jax.random.normal(key, shape)

    def draw_zeros(self, shape, fill):
        return jax.numpy.full(shape, fill)


sampler = Sampler(2.0)
draw = jax.jit(sampler.draw, static_argnums=1)
out = draw(jax.random.PRNGKey(0), (2, 3))
print(out.shape, round(float(out.sum()), 4))
full = jax.jit(sampler.draw_zeros, static_argnums=0)
print(full((3,), 1.5))
