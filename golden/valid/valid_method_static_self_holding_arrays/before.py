from functools import partial

import jax
import jax.numpy as jnp
import jax.random as jnr

key = jnr.PRNGKey(5)
lhs = jax.random.normal(key, (8, 6, 6)) + 6.0 * jnp.eye(6)
rhs = jnp.ones((8, 6))


class Solver:
    def __init__(self, lu):
        self.lu = lu

    def solve(self, rhs_0):
        return jax.vmap(jax.scipy.linalg.lu_solve)(self.lu, rhs_0)

    @partial(jax.jit, static_argnums=(0,))
    def solve_jit(self, rhs_0):
        return jax.vmap(jax.scipy.linalg.lu_solve)(self.lu, rhs_0)


lu = jax.vmap(jax.scipy.linalg.lu_factor)(lhs)

solver = Solver(lu)
sol = solver.solve(rhs)
sol_jit = solver.solve_jit(rhs)
print(jnp.allclose(sol, sol_jit, atol=1e-5), sol_jit.shape)
