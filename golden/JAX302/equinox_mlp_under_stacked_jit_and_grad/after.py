import jax
import jax.numpy as jnp
import equinox as eqx


@eqx.filter_jit
@eqx.filter_grad
def loss_fn(model, x, y):
    pred_y = jax.vmap(model)(x)
    return jax.numpy.mean((y - pred_y) ** 2)


batch_size, in_size, out_size = 32, 2, 3
key = jax.random.PRNGKey(0)
model_lin = eqx.nn.Linear(in_size, out_size, key=key)
model_seq = eqx.nn.Sequential(
    [
        eqx.nn.Linear(in_size, 4, key=key),
        eqx.nn.Linear(4, 1, key=key),
        eqx.nn.Linear(1, out_size, key=key),
    ]
)
model_MLP = eqx.nn.MLP(in_size, out_size, 8, 2, key=key)

# Try these three models:
x = jax.random.normal(jax.random.PRNGKey(1), (batch_size, in_size))
y = jnp.zeros((batch_size, out_size), dtype=jnp.float32)
grads_lin = loss_fn(model_lin, x, y)
grads_seq = loss_fn(model_seq, x, y)
grads_MLP = loss_fn(model_MLP, x, y)

for grads in (grads_lin, grads_seq, grads_MLP):
    leaves = jax.tree_util.tree_leaves(eqx.filter(grads, eqx.is_array))
    print(round(float(sum(jnp.sum(jnp.abs(g)) for g in leaves)), 4))
