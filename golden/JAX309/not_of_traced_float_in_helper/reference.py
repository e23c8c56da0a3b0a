import jax
import jax.numpy as jnp


def mwg_adapt(rw_sd, accept_rate, n_iter,
              adapt_max=.01, adapt_rate=.5):
    """
    Adapt random walk jump sizes of MWG proposals.

    Given a vector of random walk jump sizes, increase or decrease each of
    them depending on whether the cumulative acceptance rate is above or
    below 0.44.
    """
    targ_acc = 0.44  # target acceptance rate
    delta = jnp.power(n_iter, -adapt_rate)
    delta = jnp.maximum(delta, adapt_max)
    low_acc = jnp.less(accept_rate, targ_acc)
    return jnp.exp(jnp.log(rw_sd) - delta * low_acc + jnp.logical_not(delta) * low_acc)


@jax.jit
def adapt_step(rw_sd, n_accept, n_iter):
    accept_rate = n_accept / n_iter
    return mwg_adapt(rw_sd, accept_rate, n_iter)


rw_sd = jnp.array([0.1, 0.5, 1.0])
n_accept = jnp.array([2.0, 7.0, 9.0])
out = adapt_step(rw_sd, n_accept, 10.0)
print([round(float(v), 5) for v in out])
