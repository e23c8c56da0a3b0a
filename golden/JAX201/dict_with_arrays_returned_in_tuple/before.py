import jax
import jax.numpy as jnp
from jax import jit


def init_strategy(mean_init, sigma, population_size, mu):
    ''' Initialize evolutionary strategy & learning rates. '''
    n_dim = mean_init.shape[0]
    weights_prime = jnp.array(
        [jnp.log((population_size + 1) / 2) - jnp.log(i + 1)
         for i in range(population_size)])
    mu_eff = ((jnp.sum(weights_prime[:mu]) ** 2) /
               jnp.sum(weights_prime[:mu] ** 2))
    c_sigma = (mu_eff + 2) / (n_dim + mu_eff + 5)
    C, D, B = jnp.eye(n_dim), None, None

    params = {"pop_size": population_size,
              "mu": mu,
              "mu_eff": mu_eff,
              "c_sigma": c_sigma,
              "tol_x": 1e-12 * sigma,
              "min_generations": 10}
    memory = {"sigma": sigma, "mean": mean_init, "C": C, "D": D, "B": B,
              "generation": 0}
    return params, memory


def ask_cma_strategy(rng, memory, params):
    """ Propose parameters to evaluate next. """
    C, B, D = eigen_decomposition(memory["C"], memory["B"], memory["D"])
    z = jax.random.normal(rng, (memory["mean"].shape[0],
                                int(params["pop_size"]))) # ~ N(0, I)
    y = B.dot(jnp.diag(D)).dot(z)               # ~ N(0, C)
    y = jnp.swapaxes(y, 1, 0)
    x = memory["mean"] + memory["sigma"] * y    # ~ N(m, σ^2 C)
    memory["C"], memory["B"], memory["D"] = C, B, D
    return x, memory


def eigen_decomposition(C, B, D):
    """ Perform eigendecomposition of covariance matrix. """
    if B is not None and D is not None:
        return C, B, D
    C = (C + C.T) / 2
    D2, B = jnp.linalg.eigh(C)
    D = jnp.sqrt(jnp.where(D2 < 0, 1e-20, D2))
    C = jnp.dot(jnp.dot(B, jnp.diag(D ** 2)), B.T)
    return C, B, D


# Jitted version of CMA-ES ask interface
ask = jit(ask_cma_strategy, static_argnums=(2))

params, memory = init_strategy(jnp.zeros(3), 1.0, population_size=4, mu=2)
rng = jax.random.PRNGKey(0)
x, memory = ask(rng, memory, params)
print("x shape:", x.shape)
print("mean of x:", float(x.mean()))
