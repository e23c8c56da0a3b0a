import jax
import jax.numpy as jnp


@jax.jit
def nearest(query, bank):
    dist = []
    for row in bank:
        dist.append(jnp.sum((row - query) ** 2))
    best = min(range(len(dist)), key=lambda k: k)  # a Python index: the list takes it
    return dist[best], jnp.asarray(dist)[jnp.argmin(jnp.asarray(dist))]


bank = jnp.arange(12.0).reshape(4, 3)
first, smallest = nearest(jnp.array([3.0, 4.0, 5.0]), bank)
print(round(float(first), 4), round(float(smallest), 4))
