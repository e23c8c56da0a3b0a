import jax.numpy as jnp


class Tiler:
    def __init__(self, scale):
        self.scale = scale

    def apply(self, reps, x, flag):
        if flag:
            return jnp.tile(x, reps) * self.scale
        return jnp.zeros(reps * x.shape[0])


t = Tiler(2.0)
print(t.apply(2, jnp.array([1.0, 3.0]), True))
print(t.apply(3, jnp.array([1.0, 3.0]), False))
