# The stacked outputs are used: fori_loop has none, so this is only reported.
import jax
import jax.numpy as jnp


def trajectory(n):
    def step(c, _):
        return c + 1.0, c

    final, path = jax.lax.scan(step, 0.0, None, length=n.item())
    return final, path.sum()


print(jax.vmap(trajectory)(jnp.array([2, 3])))
