from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def soft_threshold(lam, x):
    return jnp.sign(x) * jnp.maximum(jnp.abs(x) - lam, 0.0)


def soft_threshold_fwd(lam, x):
    return soft_threshold(lam, x), x


def soft_threshold_bwd(lam, x, g):
    grads = (g * (jnp.abs(x) > lam),)
    return grads


soft_threshold.defvjp(soft_threshold_fwd, soft_threshold_bwd)


@jax.jit
def objective(lam, x):
    return jnp.sum(soft_threshold(lam, x) ** 2)


x = jnp.array([-2.0, 0.3, 1.5])
print(objective(0.5, x), jax.grad(objective, argnums=1)(0.5, x))
