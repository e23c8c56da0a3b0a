import jax.numpy as jnp


class Slicer:
    def take(self, n, x, front):
        return x[:n] if front else x[-n:]


s = Slicer()
print(s.take(2, jnp.arange(5), True))
print(s.take(3, jnp.arange(5), False))
