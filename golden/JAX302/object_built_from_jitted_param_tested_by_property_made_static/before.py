import jax
import jax.numpy as jnp


class Problem:
    def __init__(self, cost, tau=1.0):
        self.cost = cost
        self.tau = tau

    @property
    def balanced(self):
        return self.tau == 1.0


class Solver:
    def __init__(self, iterations=20):
        self.iterations = iterations

    def __call__(self, prob):
        rho = 1.0 if prob.balanced else prob.tau
        f = jnp.zeros(prob.cost.shape[0])
        for _ in range(self.iterations):
            f = rho * jax.nn.logsumexp(f[None, :] - prob.cost, axis=1)
        return f.sum()


def solve(cost, tau):
    return Solver()(Problem(cost, tau=tau))


cost = jnp.arange(9.0).reshape(3, 3) / 10.0
print(round(float(solve(cost, 0.5)), 4))
print(round(float(jax.jit(solve)(cost, 0.5)), 4))
