import jax.numpy as jnp


def make(scale, size, kind):
    return jnp.arange(size) * scale if kind == "ramp" else jnp.full((size,), scale)


print(make(0.5, size=4, kind="ramp"))
print(make(2.0, kind="flat", size=3))
