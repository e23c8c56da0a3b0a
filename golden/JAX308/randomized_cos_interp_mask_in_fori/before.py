# Cut down from https://github.com/jax-ml/jax/issues/9579
from jax import random
import jax
import jax.numpy as jnp


def biject_alpha(idx, val):
    alpha, i, key = val
    # hyperparameters for randomisation
    cdf_bins = 20

    key, consume = random.split(key)
    samples = random.uniform(consume, (cdf_bins-1,), maxval=1.0)
    samples = jnp.hstack((jnp.array([0.0]), samples))
    montonous = jnp.cumsum(samples)
    cdf = montonous/montonous[-1]

    # idx of first occurenece
    mask = (i-1) == idx
    start_idx = jnp.select(mask, jnp.arange(len(mask)))

    # biject slice
    alpha_i = alpha[mask]
    bijected_alpha = cdf[(alpha_i//(1/cdf_bins)).astype(int)]
    alpha = jax.lax.dynamic_update_slice(alpha, bijected_alpha, (start_idx,))
    return (alpha, i, key)


def cosInterpolateRandomized(x, xp, fp, consume):
    i = jnp.clip(jnp.searchsorted(xp, x, side='right'), 1, len(xp) - 1)
    dx = xp[i] - xp[i - 1]
    alpha = (x - xp[i - 1])/dx
    alpha, _, _ = jax.lax.fori_loop(0, len(xp)-1, biject_alpha, (alpha, i, consume))

    def cos_interpolate(x1, x2, alpha):
        alpha2 = (1 - jnp.cos(alpha * jnp.pi)) / 2
        return x1 * (1 - alpha2) + x2 * alpha2

    return cos_interpolate(fp[i - 1], fp[i], alpha)


xp = jnp.array([0.0, 1.0, 2.0, 3.0])
fp = jnp.array([0.0, 1.0, 0.0, 1.0])
x = jnp.linspace(0.0, 3.0, 10)
y = jax.jit(cosInterpolateRandomized)(x, xp, fp, random.PRNGKey(0))
print([round(float(v), 4) for v in y])
