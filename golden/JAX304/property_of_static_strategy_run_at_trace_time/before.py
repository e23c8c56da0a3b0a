from functools import partial

import jax
import jax.numpy as jnp
from flax import struct

@struct.dataclass
class EvoParams:
    c_mu: float
    weights: jnp.ndarray
    sigma_init: float = 0.5

@struct.dataclass
class EvoState:
    mean: jnp.ndarray
    C: jnp.ndarray
    sigma: float
    best_fitness: float = jnp.finfo(jnp.float32).max

class CMA_ES:
    def __init__(self, num_dims, popsize, elite_ratio=0.5):
        self.num_dims, self.popsize = num_dims, popsize
        self.elite_popsize = int(self.popsize * elite_ratio)

    @property
    def default_params(self):
        weights_prime = jnp.array(
            [jnp.log((self.popsize + 1) / 2) - jnp.log(i + 1) for i in range(self.popsize)])
        mu_eff = jnp.sum(weights_prime[: self.elite_popsize]) ** 2 / jnp.sum(
            weights_prime[: self.elite_popsize] ** 2)
        mu_eff_minus = jnp.sum(weights_prime[self.elite_popsize:]) ** 2 / jnp.sum(
            weights_prime[self.elite_popsize:] ** 2)
        c_1 = 2 / ((self.num_dims + 1.3) ** 2 + mu_eff)
        c_mu = jnp.minimum(1 - c_1, 2 * (mu_eff - 2 + 1 / mu_eff) / ((self.num_dims + 2) ** 2 + mu_eff))
        min_alpha = min(1 + c_1 / c_mu, 1 + (2 * mu_eff_minus) / (mu_eff + 2),
                        (1 - c_1 - c_mu) / (self.num_dims * c_mu))
        positive_sum = jnp.sum(weights_prime[weights_prime > 0])
        negative_sum = jnp.sum(jnp.abs(weights_prime[weights_prime < 0]))
        weights = jnp.where(weights_prime >= 0, weights_prime / positive_sum,
                            min_alpha / negative_sum * weights_prime)
        return EvoParams(c_mu=c_mu, weights=weights)

    def initialize(self, rng, params):
        return EvoState(mean=jnp.zeros(self.num_dims), C=jnp.eye(self.num_dims), sigma=params.sigma_init)

    def ask(self, rng, state, params):
        D2, B = jnp.linalg.eigh(state.C)
        z = jax.random.normal(rng, (self.popsize, self.num_dims))
        return state.mean + state.sigma * (z * jnp.sqrt(D2)) @ B.T, state

    def tell(self, x, fitness, state, params):
        y = (x[jnp.argsort(fitness)] - state.mean) / state.sigma
        w_pos = jnp.where(params.weights > 0, params.weights, 0.0)
        C = (1 - params.c_mu) * state.C + params.c_mu * jnp.einsum("i,ij,ik->jk", w_pos, y, y)
        return state.replace(mean=state.mean + state.sigma * w_pos @ y, C=C,
                             best_fitness=jnp.minimum(state.best_fitness, fitness.min()))

X = jnp.linspace(-1.0, 1.0, 20)
Y = 2.0 * X - 0.5
fitness_fn = lambda theta: jnp.mean((theta[0] * X + theta[1] - Y) ** 2)

@partial(jax.jit, static_argnums=(1, 2))
def run_es(rng, strategy, num_generations):
    es_params = strategy.default_params
    state = strategy.initialize(rng, es_params)
    def es_step(carry, _):
        rng, state = carry
        rng, rng_gen = jax.random.split(rng)
        x, state = strategy.ask(rng_gen, state, es_params)
        state = strategy.tell(x, jax.vmap(fitness_fn)(x), state, es_params)
        return (rng, state), state.best_fitness
    (_, state), trace = jax.lax.scan(es_step, (rng, state), None, length=num_generations)
    return state.mean, trace

strategy = CMA_ES(num_dims=2, popsize=10, elite_ratio=0.5)
mean, trace = run_es(jax.random.PRNGKey(0), strategy, 30)
print([round(v, 4) for v in mean.tolist()], round(float(trace[-1]), 6))
