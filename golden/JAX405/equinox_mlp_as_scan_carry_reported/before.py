import jax, jax.random as jrnd
import equinox as eqx

key = jrnd.PRNGKey(5)
X = jrnd.normal(key, (20, 3))
y = jrnd.normal(key, (20, 1))

scanner = lambda carry, _: (carry, 5.0)

# 1. This works fine:
model1 = eqx.nn.Linear(X.shape[1], y.shape[1], key=key)
# NOTE: `model1` is the carry!
res1 = jax.lax.scan(eqx.filter_jit(scanner), model1, X)
print(res1[0].weight.shape, res1[1][:3])

# 2. This produces an error:
model2 = eqx.nn.MLP(X.shape[1], y.shape[1], 6, 3, key=key)
# NOTE: `model2` is the carry!
res = jax.lax.scan(eqx.filter_jit(scanner), model2, X)
print(res[0].layers[0].weight.shape, res[1][:3])
