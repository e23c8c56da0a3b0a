import jax
import jax.numpy as jnp
from jax import random


def create_lp(c, A, b, G, h, var_lb, var_ub):
    """The maintainers' resolution: change the API to the general form
    (A x = b, G x >= h) so the problem size no longer depends on the data."""
    A_all = jnp.concatenate([A, G], axis=0)
    rhs = jnp.concatenate([b, h])
    return c, A_all, rhs, var_lb, var_ub


def solve_mpax(A):
    """Maximize sum(x) subject to A @ x <= 1, written as -A x >= -1."""
    m, n = A.shape
    c = -jnp.ones(n)
    c, A_all, rhs, lb, ub = create_lp(
        c, jnp.zeros((0, n)), jnp.zeros(0), -A, -jnp.ones(m), jnp.zeros(n), jnp.full(n, jnp.inf)
    )
    return c.sum() + A_all.sum() + rhs.sum()


A = random.uniform(random.PRNGKey(0), (4, 3, 5), minval=-1.0, maxval=1.0)
print(jax.vmap(jax.jit(solve_mpax))(A))
