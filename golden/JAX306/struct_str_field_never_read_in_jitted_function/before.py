# A frozen dataclass pytree (chex.dataclass style) carrying a name string and
# data; a noise function over it is jitted.
import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class Foo:
    name: str
    data: jnp.ndarray


def noise(key, foo):
    rng, key = jax.random.split(key)
    noise = jax.random.normal(rng, foo.data.shape)
    return foo.data + noise


def make_sensors():
    return [Foo(name=f"sensor_{i}", data=jnp.arange(4.0) * (i + 1)) for i in range(3)]


if __name__ == "__main__":
    noisy = jax.jit(noise)
    key = jax.random.key(0)
    total = 0.0
    for foo in make_sensors():
        key, sub = jax.random.split(key)
        total = total + noisy(sub, foo).sum()
    print(round(float(total), 4))
