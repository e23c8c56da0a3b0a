import jax
import jax.numpy as jnp
from jax import lax
import equinox as eqx


class Forecaster(eqx.Module):
    init_net: eqx.nn.Linear
    stepper: eqx.nn.Linear
    init_len: int
    hist: int
    dt: float

    def __init__(self, dim, init_len, hist, emb, dt, *, key):
        k1, k2 = jax.random.split(key)
        self.init_net = eqx.nn.Linear(init_len * dim, emb, key=k1)
        self.stepper = eqx.nn.Linear(hist * dim + emb, dim, key=k2)
        self.init_len = init_len
        self.hist = hist
        self.dt = dt

    def __call__(self, steps, ytraj_init):
        nt_init = ytraj_init.shape[0]
        assert(self.init_len <= nt_init)
        assert(self.hist <= nt_init)

        init_emb = self.init_net(ytraj_init[:self.init_len].reshape(-1))

        tpred = jnp.arange(0, steps+self.hist)*self.dt
        ypred = jnp.zeros((steps+self.hist, ytraj_init.shape[1]))
        ypred = ypred.at[:self.hist].set(ytraj_init[:self.hist])

        def _step(i, ypred):
            yhist = jax.lax.dynamic_slice(ypred, (i - self.hist, 0), (self.hist, ypred.shape[1])).flatten()
            yi = self.stepper(jnp.concatenate([yhist, init_emb]))
            ypred = ypred.at[i].set(yi)
            return ypred

        ypred = lax.fori_loop(self.hist, steps+self.hist, _step, ypred)
        return tpred, ypred


model = Forecaster(dim=2, init_len=4, hist=3, emb=5, dt=0.1, key=jax.random.PRNGKey(0))
ytraj_init = jnp.sin(jnp.linspace(0.0, 1.0, 12)).reshape(6, 2)

@eqx.filter_jit
def rollout(model, steps, ytraj_init):
    return model(steps, ytraj_init)


tpred, ypred = rollout(model, 10, ytraj_init)
print(tpred.shape, ypred.shape)
print(jnp.round(ypred[-1], 4))
