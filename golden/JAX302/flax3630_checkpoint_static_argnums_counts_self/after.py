import jax
import jax.numpy as jnp
import numpy as np
import flax.linen as nn


class FeedForward(nn.Module):
    features: int
    dropout_rate: float = 0.1

    @nn.compact
    def __call__(self, x, deterministic):
        y = nn.Dense(self.features)(x)
        y = nn.gelu(y)
        y = nn.Dropout(rate=self.dropout_rate, deterministic=deterministic)(y)
        return x + y


class Encoder(nn.Module):
    features: int = 8
    num_layers: int = 2

    @nn.compact
    def __call__(self, x, deterministic):
        CheckpointedFeedForward = nn.checkpoint(FeedForward, static_argnums=(2,))
        for _ in range(self.num_layers):
            x = CheckpointedFeedForward(self.features)(x, deterministic)
        return x


model = Encoder()
x = jnp.ones((2, 8))
variables = model.init(jax.random.PRNGKey(0), x, True)
out = model.apply(variables, x, True)
print(np.round(np.asarray(out, dtype=np.float64), 4).tolist())
