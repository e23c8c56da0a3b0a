# Cut down from https://github.com/p-doom/jasmine/issues/228 (utils/nn.py)
# STTransformer keeps its blocks in a plain Python list attribute.
import jax
import jax.numpy as jnp
from flax import nnx


class STBlock(nnx.Module):
    def __init__(self, dim: int, ffn_dim: int, rngs: nnx.Rngs):
        self.dim = dim
        self.ffn_dim = ffn_dim
        self.ffn_norm = nnx.LayerNorm(num_features=self.dim, rngs=rngs)
        self.ffn_dense1 = nnx.Linear(in_features=self.dim, out_features=self.ffn_dim, rngs=rngs)
        self.ffn_dense2 = nnx.Linear(in_features=self.ffn_dim, out_features=self.dim, rngs=rngs)

    def __call__(self, x_BTNM: jax.Array) -> jax.Array:
        z_BTNM = self.ffn_norm(x_BTNM)
        z_BTNF = jax.nn.gelu(self.ffn_dense1(z_BTNM))
        return x_BTNM + self.ffn_dense2(z_BTNF)


class STTransformer(nnx.Module):
    def __init__(self, input_dim: int, model_dim: int, ffn_dim: int, out_dim: int,
                 num_blocks: int, rngs: nnx.Rngs):
        self.input_dim = input_dim
        self.model_dim = model_dim
        self.num_blocks = num_blocks
        self.input_dense = nnx.Linear(in_features=self.input_dim, out_features=self.model_dim, rngs=rngs)
        self.blocks = nnx.List([])
        for _ in range(self.num_blocks):
            self.blocks.append(STBlock(dim=self.model_dim, ffn_dim=ffn_dim, rngs=rngs))
        self.output_dense = nnx.Linear(in_features=self.model_dim, out_features=out_dim, rngs=rngs)

    def __call__(self, x_BTNI: jax.Array) -> jax.Array:
        x_BTNM = self.input_dense(x_BTNI)
        for block in self.blocks:
            x_BTNM = block(x_BTNM)
        return self.output_dense(x_BTNM)


@nnx.jit
def forward(model: STTransformer, x):
    return model(x)


model = STTransformer(input_dim=4, model_dim=8, ffn_dim=16, out_dim=3, num_blocks=2, rngs=nnx.Rngs(0))
x = jnp.linspace(-1.0, 1.0, 2 * 3 * 5 * 4).reshape(2, 3, 5, 4)
y = forward(model, x)
print(y.shape, round(float(jnp.abs(y).sum()), 3))
