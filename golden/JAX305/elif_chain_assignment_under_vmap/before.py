import jax
import jax.numpy as jnp


def smooth_step(x, width):
    if x < 0.0:
        y = jnp.zeros_like(x)
    elif x < width:
        y = (x / width) ** 2 * (3.0 - 2.0 * x / width)
    else:
        y = jnp.ones_like(x)
    return y


xs = jnp.linspace(-0.5, 1.5, 9)
ys = jax.vmap(smooth_step, in_axes=(0, None))(xs, 1.0)
print([round(v, 5) for v in ys.tolist()])
