import equinox as eqx
import jax
import jax.numpy as jnp
from jax.experimental import sparse
from functools import partial


class ESNForecaster(eqx.Module):
    """Tiny echo state network: sparse reservoir + dense input/readout."""

    Wr: sparse.BCOO
    Win: jax.Array
    Wout: jax.Array
    leak_rate: float = 0.6

    def __init__(self, data_dim, res_dim, seed=0):
        k1, k2, k3 = jax.random.split(jax.random.PRNGKey(seed), 3)
        dense = jax.random.uniform(k1, (res_dim, res_dim), minval=-1.0, maxval=1.0)
        mask = jax.random.uniform(k2, (res_dim, res_dim)) < 0.2
        self.Wr = sparse.BCOO.fromdense(0.4 * dense * mask)
        self.Win = 0.1 * jax.random.normal(k3, (res_dim, data_dim))
        self.Wout = jnp.ones((data_dim, res_dim)) / res_dim

    def forecast(self, fcast_len, res_state):
        def step(r, _):
            u = self.Wout @ r
            r_new = jnp.tanh(self.Wr @ r + self.Win @ u)
            r = (1 - self.leak_rate) * r + self.leak_rate * r_new
            return r, self.Wout @ r

        _, ys = jax.lax.scan(step, res_state, None, length=fcast_len)
        return ys


esn = ESNForecaster(data_dim=3, res_dim=20, seed=0)
res_state = jnp.full((20,), 0.5)
fcast_len = 10

# pass the model explicitly as a pytree argument (not closed over)
@partial(jax.jit, static_argnames=("fcast_len",))
def forecast(model, fcast_len, res_state):
    return model.forecast(fcast_len, res_state)


ys = forecast(esn, fcast_len, res_state)
print(ys.shape, round(float(ys.sum()), 4))
