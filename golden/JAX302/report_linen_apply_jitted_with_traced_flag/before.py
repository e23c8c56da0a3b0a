# A jit around a flax linen model's `apply` traces what `__call__` receives: the
# flag passed positionally arrives as a tracer, and the Python `if` on it fails.
# The fix (static_argnums on that jit) is left to a person: flax may also run
# `__call__` from code this module cannot see.
import jax
import jax.numpy as jnp
import flax.linen as nn


class MLP(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x, train):
        x = nn.Dense(self.features)(x)
        if train:
            x = x * 2
        return x.sum(axis=-1)


model = MLP(features=3)
x = jnp.ones((2, 4))
variables = model.init(jax.random.PRNGKey(0), x, False)
apply = jax.jit(model.apply)
print(apply(variables, x, True).round(4).tolist())
