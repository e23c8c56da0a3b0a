import jax
import jax.numpy as jnp

from pkg.model import default_rollout, rollout

x = jnp.arange(3.0)
print(default_rollout(x))
print(jax.vmap(rollout, in_axes=(None, 0))(x, jnp.array([1, 2])))
