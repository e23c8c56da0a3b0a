# A composite of components collected from **kwargs into a dict and handed to a jitted kernel as a
# traced pytree (not static): each component is itself a tuple of arrays, which jit traces.
import jax
import jax.numpy as jnp


@jax.jit
def total_energy(components, q):
    return sum(scale * jnp.sum(q ** 2) + offset for scale, offset in components.values())


class Composite:
    def __init__(self, **components):
        self._data = dict(components)

    def energy(self, q):
        return total_energy(self._data, q)


pot = Composite(bulge=(jnp.array(2.0), jnp.array(1.0)), halo=(jnp.array(0.5), jnp.array(-1.0)))
print(round(float(pot.energy(jnp.array([1.0, 2.0]))), 4))
