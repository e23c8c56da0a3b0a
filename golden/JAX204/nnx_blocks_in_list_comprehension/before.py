# Cut down from https://github.com/jax-ml/bonsai/issues/47 (SAM2's memory encoder Fuser):
# the fuser keeps its ConvNeXt blocks in a plain list built by a comprehension.
import jax
import jax.numpy as jnp
from flax import nnx


class CXBlock(nnx.Module):
    def __init__(self, dim: int, *, rngs: nnx.Rngs):
        self.dwconv = nnx.Conv(dim, dim, kernel_size=(3, 3), padding=1, feature_group_count=dim, rngs=rngs)
        self.norm = nnx.LayerNorm(dim, rngs=rngs)
        self.pwconv = nnx.Linear(dim, dim, rngs=rngs)

    def __call__(self, x):
        return x + self.pwconv(jax.nn.gelu(self.norm(self.dwconv(x))))


class Fuser(nnx.Module):
    def __init__(self, dim: int, num_layers: int, *, rngs: nnx.Rngs):
        self.proj = nnx.Linear(dim, dim, rngs=rngs)
        self.layers = [CXBlock(dim, rngs=rngs) for _ in range(num_layers)]

    def __call__(self, x):
        x = self.proj(x)
        for layer in self.layers:
            x = layer(x)
        return x


fuser = Fuser(8, num_layers=2, rngs=nnx.Rngs(0))
x = jnp.linspace(-1.0, 1.0, 2 * 4 * 4 * 8).reshape(2, 4, 4, 8)
y = nnx.jit(lambda m, x: m(x))(fuser, x)
print(y.shape, round(float(jnp.abs(y).mean()), 4))
