# Hand fix of codestella/putting-nerf-on-a-diet PR #11 ("Fix invalid Jax Type
# on single_step"): a train step jitted by assignment, with the model object and
# the sample count N_samples as plain parameters. The flax Module is re-staged
# as a small class with an apply method.
import jax
import jax.numpy as jnp
from jax import jit


class NerfModel:
    def __init__(self, width):
        self.width = width

    def apply(self, params, pts):
        return jnp.tanh(pts @ params["w"])


def single_step_wojit(key, params, rays, near, far, lr, model, N_samples):
    t_vals = jnp.linspace(near, far, N_samples)
    pts = rays[:, None, :] * t_vals[None, :, None]

    def loss_fn(params):
        rgb = model.apply(params, pts).mean(axis=1)
        return jnp.mean((rgb - 0.5) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    return params, loss


single_step = jit(single_step_wojit, static_argnames=("model", "N_samples"))

key = jax.random.PRNGKey(0)
model = NerfModel(width=4)
params = {"w": jax.random.normal(key, (3, 4)) * 0.1}
rays = jnp.linspace(0.0, 1.0, 6).reshape(2, 3)
for i in range(3):
    params, loss = single_step(key, params, rays, 2.0, 6.0, 0.1, model, 8)
    print(i, round(float(loss), 5))
