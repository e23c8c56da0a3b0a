# Cut down from jax-ml/jax#9463 ("Error upon compilation while using jax.jit"):
# the MWE's module-level code put in the function the asker jits. The column
# vector's length and the slice bounds depend on how many entries of smf are inf.
import jax
import jax.numpy as jnp
jax.config.update("jax_enable_x64", True)

num_rows = 5
num_cols = 4


@jax.jit
def to_columns(par_init, smf, lb, ub):
    par = jnp.broadcast_to(par_init[:,None],(num_rows,num_cols))

    kvals = jnp.where(jnp.isinf(smf), 1, num_cols)
    kvals = jnp.insert(kvals, 0, 0)
    kvals = jnp.cumsum(kvals)

    par0_col = jnp.zeros(num_rows*num_cols - (num_cols-1) * jnp.sum(jnp.isinf(smf)))
    lb_col = jnp.zeros(num_rows*num_cols - (num_cols-1) * jnp.sum(jnp.isinf(smf)))

    for i in range(num_rows):
        par0_col = par0_col.at[kvals[i]:kvals[i+1]].set(par[i, :kvals[i+1]-kvals[i]])
        lb_col = lb_col.at[kvals[i]:kvals[i+1]].set(lb[i])
    return par0_col, lb_col


smf = jnp.array([jnp.inf, 0.1, 0.1, 0.1, 0.1])
par_init = jnp.array([1.0,2.0,3.0,4.0,5.0])
lb = jnp.array([0.1, 0.1, 0.1, 0.1, 0.1])
ub = jnp.array([10.0, 10.0, 10.0, 10.0, 10.0])
print(to_columns(par_init, smf, lb, ub)[0])
