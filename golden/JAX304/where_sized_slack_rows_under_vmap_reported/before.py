import jax
import jax.numpy as jnp
from jax import random


def create_lp(c, A, l, u, var_lb, var_ub):
    """Cut-down of MPAX's old create_lp / two_sided_rows_to_slacks: every two-sided
    row l <= a'x <= u gets a slack variable, so the problem size depends on l and u."""
    two_sided_rows = jnp.where(
        jnp.isfinite(l) & jnp.isfinite(u) & (l != u)
    )[0]
    n_slack = len(two_sided_rows)
    slack = jnp.zeros((A.shape[0], n_slack)).at[two_sided_rows, jnp.arange(n_slack)].set(-1.0)
    A_eq = jnp.concatenate([A, slack], axis=1)
    lb = jnp.concatenate([var_lb, l[two_sided_rows]])
    ub = jnp.concatenate([var_ub, u[two_sided_rows]])
    c = jnp.concatenate([c, jnp.zeros(n_slack)])
    return c, A_eq, lb, ub


def solve_mpax(A):
    """Maximize sum(x) subject to A @ x <= 1 (here only the problem setup)."""
    m, n = A.shape
    c = -jnp.ones(n)
    l = jnp.where(A.sum(1) > 0, -jnp.inf, -1.0)
    u = jnp.ones(m)
    c, A_eq, lb, ub = create_lp(c, A, l, u, jnp.zeros(n), jnp.full(n, jnp.inf))
    return c.sum() + A_eq.sum()


A = random.uniform(random.PRNGKey(0), (4, 3, 5), minval=-1.0, maxval=1.0)
print(jax.vmap(jax.jit(solve_mpax))(A))
