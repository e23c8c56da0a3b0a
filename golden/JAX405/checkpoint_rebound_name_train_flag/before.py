import jax
import jax.numpy as jnp


def batch_norm(x, use_running_average, mean, var):
    if not use_running_average:
        mean, var = x.mean(0), x.var(0)
    return (x - mean) / jnp.sqrt(var + 1e-5)


def dense(p, x):
    return x @ p["w"] + p["b"]


def MLP(params, x, train):
    x = batch_norm(x, use_running_average=not train, mean=params["mean"], var=params["var"])
    x = dense(params["l1"], x)
    x = jax.nn.relu(x)
    x = dense(params["l2"], x)
    return x

# Works fine with this line commented out
MLP = jax.checkpoint(MLP)

k1, k2, k3 = jax.random.split(jax.random.PRNGKey(42), 3)
params = {
    "mean": jnp.zeros(4), "var": jnp.ones(4),
    "l1": {"w": jax.random.normal(k1, (4, 8)), "b": jnp.zeros(8)},
    "l2": {"w": jax.random.normal(k2, (8, 1)), "b": jnp.zeros(1)},
}
input_example = jax.random.normal(k3, (5, 4))
out = MLP(params, input_example, True)
print(jnp.round(out.ravel(), 3))
