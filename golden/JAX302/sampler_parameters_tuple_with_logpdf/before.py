# Sampling runtime in the style of mcx: a kernel factory builds a transition
# kernel from the chain parameters, and the update is jitted + vmapped.
import jax
import jax.numpy as np


def rwm_kernel_factory(logpdf, step_size):
    def kernel(rng_key, position):
        proposal = position + step_size * jax.random.normal(rng_key, position.shape)
        log_ratio = logpdf(proposal) - logpdf(position)
        accept = np.log(jax.random.uniform(rng_key)) < log_ratio
        return np.where(accept, proposal, position)
    return kernel


def logpdf(x):
    return -0.5 * np.sum((x - 1.0) ** 2)


class sample(object):
    def __init__(self, rng_key, logpdf, kernel_factory, num_chains=4, step_size=0.5):
        self.rng_key = rng_key
        self.num_chains = num_chains
        self.kernel_factory = kernel_factory
        self.parameters = (logpdf, step_size)
        self.state = np.zeros((num_chains, 2))

    def run(self, num_samples=200):
        @jax.jit
        def update_chains(rng_key, parameters, chain_state):
            kernel = self.kernel_factory(*parameters)
            keys = jax.random.split(rng_key, self.num_chains)
            return jax.vmap(kernel)(keys, chain_state)

        state = self.state
        total = np.zeros_like(state)
        for step in range(num_samples):
            _, self.rng_key = jax.random.split(self.rng_key)
            state = update_chains(self.rng_key, self.parameters, state)
            total = total + state
        self.state = state
        return total / num_samples


sampler = sample(jax.random.PRNGKey(0), logpdf, rwm_kernel_factory)
means = sampler.run()
print(means.shape)
print(np.round(means, 3))
