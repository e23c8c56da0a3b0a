# From google-deepmind/dm-haiku#187 ("Jit compiler for is_training arguments").
# Haiku itself is not needed to show the pattern, so Net is written with plain
# JAX init/apply functions; the jitted loss marks the Python bool `is_training`
# as static (static_argnums=(4,)), which is hashable -- this runs fine.
import functools

import jax
import jax.numpy as jnp


class Net:
    def __init__(self, output_size: int = 1, hidden: int = 32):
        self.output_size = output_size
        self.hidden = hidden

    def init(self, rng, x):
        k1, k2 = jax.random.split(rng)
        return {
            "w1": jax.random.normal(k1, (x.shape[-1], self.hidden)) * 0.3,
            "b1": jnp.zeros(self.hidden),
            "w2": jax.random.normal(k2, (self.hidden, self.output_size)) * 0.3,
            "b2": jnp.zeros(self.output_size),
        }

    def apply(self, params, rng, x, is_training):
        x = jax.nn.relu(x @ params["w1"] + params["b1"])
        if is_training:                       # Python bool -> must be static
            keep = jax.random.bernoulli(rng, 0.9, x.shape)
            x = jnp.where(keep, x / 0.9, 0.0)
        return x @ params["w2"] + params["b2"]


net = Net(1)


# not tracing is_training argument
@functools.partial(jax.jit, static_argnums=(4,))
def model_loss(params, rng, target, x, is_training):
    output = net.apply(params, rng, x, is_training)
    return jnp.mean((output - target) ** 2)


x = jnp.linspace(-2.0, 2.0, 64).reshape(-1, 1)
target = jnp.sin(x)
params = net.init(jax.random.PRNGKey(42), x)
rng = jax.random.PRNGKey(0)
for step in range(100):
    rng, sub = jax.random.split(rng)
    grads = jax.grad(model_loss)(params, sub, target, x, True)
    params = jax.tree_util.tree_map(lambda p, g: p - 0.05 * g, params, grads)

print(round(float(model_loss(params, rng, target, x, False)), 4))
