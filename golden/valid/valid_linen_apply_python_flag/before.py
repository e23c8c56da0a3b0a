# A flax linen model whose `__call__` branches in Python on a flag: every way the
# program runs it (init, eager apply, a jitted train step, a jitted apply) passes the
# flag as a Python bool or leaves it at its default, so nothing is traced there.
import jax
import jax.numpy as jnp
import flax.linen as nn


class MLP(nn.Module):
    features: int
    rate: float = 0.5

    @nn.compact
    def __call__(self, x, train: bool = False):
        x = nn.Dense(self.features)(x)
        if train:
            x = nn.Dropout(self.rate, deterministic=False)(x)
        for _ in range(2):
            x = nn.relu(x)
        return x.sum(axis=-1)


model = MLP(features=3)
x = jnp.ones((2, 4))
variables = model.init(jax.random.PRNGKey(0), x)
print(model.apply(variables, x).round(4).tolist())


@jax.jit
def train_step(variables, x, key):
    return model.apply(variables, x, train=True, rngs={"dropout": key})


print(train_step(variables, x, jax.random.PRNGKey(1)).shape)
print(jax.jit(model.apply)(variables, x).round(4).tolist())
