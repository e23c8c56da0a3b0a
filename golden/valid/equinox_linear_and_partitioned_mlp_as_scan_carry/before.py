# Looks like equinox#446 (a model as a scan carry), but eqx.nn.Linear holds arrays alone, and the
# MLP's activation is passed through partition/combine: both run.
import jax
import jax.random as jrnd
import equinox as eqx

key = jrnd.PRNGKey(5)
X = jrnd.normal(key, (20, 3))

linear = eqx.nn.Linear(3, 1, key=key)
res = jax.lax.scan(lambda carry, x: (carry, carry(x)), linear, X)
print(res[0].weight.shape, res[1][:3].ravel())

mlp = eqx.nn.MLP(3, 1, 6, 2, key=key)
params, static = eqx.partition(mlp, eqx.is_array)


def step(carry, x):
    model = eqx.combine(carry, static)
    return carry, model(x)


params, ys = jax.lax.scan(step, params, X)
print(eqx.combine(params, static).layers[0].weight.shape, ys[:3].ravel())
