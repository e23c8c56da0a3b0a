# Look-alike of equinox#865 that works: the ensemble is split with
# eqx.partition, jax.vmap maps only its arrays, and each member is rebuilt
# inside with eqx.combine, its activation function taken from the static part.
import equinox as eqx
import jax
import jax.numpy as jnp


def make_ensemble(n, key):
    keys = jax.random.split(key, n)
    return eqx.filter_vmap(lambda k: eqx.nn.MLP(2, 1, 4, 1, activation=jnp.tanh, key=k))(keys)


ensemble = make_ensemble(3, jax.random.PRNGKey(0))
params, static = eqx.partition(ensemble, eqx.is_array)
xs = jnp.array([[0.5, -1.0], [1.0, 0.0], [-0.5, 2.0]])
preds = jax.vmap(lambda p, x: eqx.combine(p, static)(x)[0])(params, xs)
print(preds.shape, round(float(preds.mean()), 4))
