import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class _MetropolisSampler():
    field1 : int
    field2 : int
    field3 : int = 3
    n_sweeps : int = struct.field(pytree_node=False, default=4)


def log_prob(sigma):
    # Ising-like chain: favour aligned neighbouring spins
    return 0.5 * jnp.sum(sigma * jnp.roll(sigma, 1, axis=-1), axis=-1)


def _sweep(sampler, sigma, key):
    """One sweep = `n_sweeps` single-spin-flip Metropolis steps on every chain."""
    for _ in range(sampler.n_sweeps):
        key, k_site, k_acc = jax.random.split(key, 3)
        site = jax.random.randint(k_site, (sigma.shape[0],), 0, sigma.shape[1])
        flip = jax.nn.one_hot(site, sigma.shape[1], dtype=sigma.dtype)
        proposal = sigma * (1 - 2 * flip)
        log_ratio = log_prob(proposal) - log_prob(sigma)
        accept = jnp.log(jax.random.uniform(k_acc, (sigma.shape[0],))) < log_ratio
        sigma = jnp.where(accept[:, None], proposal, sigma)
    return sigma


@jax.jit
def sample_next(sampler, sigma, key):
    sigma = _sweep(sampler, sigma, key)
    return sigma, jnp.mean(log_prob(sigma)) * sampler.field1 / sampler.field2


sampler = _MetropolisSampler(field1=1, field2=2)
sigma = jnp.ones((4, 6)).at[:, ::2].set(-1.0)
sigma, mean_lp = sample_next(sampler, sigma, jax.random.PRNGKey(0))
print(sigma.astype(int).tolist())
print(round(float(mean_lp), 4))
