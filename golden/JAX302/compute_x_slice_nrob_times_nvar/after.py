# Cut down from jax-ml/jax#4531 ("Regarding Jax static argnum and jit"): a
# multi-robot trajectory step whose slice bounds and reshape are n_rob*nvar,
# n_rob an argument and nvar read from P's shape; the function is jitted whole.
import numpy as np
import jax.numpy as jnp
from jax import jit


def compute_x(num, n_con, n_rob, P, bx_eq, Ax_eq_obs, bx_eq_obs, d_obs_ij, alpha_ij,
              lamda_x, rho_w_alpha, cost_mat_inv_x):

    nvar = jnp.shape(P)[1]
    A_w = Ax_eq_obs

    aug_term = jnp.vstack(( bx_eq_obs+1.22*d_obs_ij*jnp.cos(alpha_ij)-lamda_x/rho_w_alpha,  ))
    linterm_augment = -rho_w_alpha*jnp.dot(A_w.T, aug_term.T ).T
    lincost_mat = jnp.hstack(( -linterm_augment, jnp.vstack(( bx_eq,  )) ))

    sol_x = jnp.dot(cost_mat_inv_x, lincost_mat[0])

    primal_sol_x = sol_x[0:n_rob*nvar]

    cx = primal_sol_x[0:n_rob*nvar]
    cx = cx.reshape(n_rob, nvar)

    x = jnp.dot(P, cx.T).T
    wc_alpha = jnp.dot(A_w, primal_sol_x)-bx_eq_obs
    return x, wc_alpha


num, n_con, n_rob, nvar = 5, 2, 2, 3
P = jnp.asarray(np.linspace(0., 1., num*nvar).reshape(num, nvar))
Ax_eq_obs = jnp.ones((4, n_rob*nvar))
bx_eq_obs = jnp.arange(4.)
bx_eq = jnp.array([1., -1.])
cost_mat_inv_x = 0.1*jnp.eye(n_rob*nvar + n_con)

compute_x_jit = jit(compute_x, static_argnames=("n_rob",))
lamda_x = jnp.zeros(4)
for i in range(2):
    x, wc_alpha = compute_x_jit(num, n_con, n_rob, P, bx_eq, Ax_eq_obs, bx_eq_obs, 0.5, 0.1*i,
                                lamda_x, 1.0, cost_mat_inv_x)
    lamda_x = lamda_x - 0.1*wc_alpha
print(np.asarray(x, dtype=np.float64).round(3))
print(np.asarray(wc_alpha, dtype=np.float64).round(3))
