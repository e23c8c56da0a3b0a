# equinox#865: an ensemble of equinox models, built with filter_vmap, is
# evaluated with jax.vmap; each member's eqx.nn.MLP holds its activation
# function as a leaf, which vmap cannot map.
import equinox as eqx
import jax
import jax.numpy as jnp


def make_ensemble(n, key):
    keys = jax.random.split(key, n)
    return eqx.filter_vmap(lambda k: eqx.nn.MLP(2, 1, 4, 1, activation=jnp.tanh, key=k))(keys)


def predict(model, x):
    return model(x)[0]


ensemble = make_ensemble(3, jax.random.PRNGKey(0))
xs = jnp.array([[0.5, -1.0], [1.0, 0.0], [-0.5, 2.0]])  # one input per member
preds = eqx.filter_vmap(predict)(ensemble, xs)
print(preds.shape, round(float(preds.mean()), 4))
