# Looks like bonsai#47 (a list attribute in an nnx Module), but the plain list holds the
# feature sizes, Python ints: static, as it should be; the blocks live in an nnx.List, as flax#5223's
# benchmark wrote them, and one block sits in a tuple-free attribute of its own.
import jax.numpy as jnp
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, features, *, rngs: nnx.Rngs):
        self.features = [f for f in features]
        self.sizes = (features[0], features[-1])
        self.blocks = nnx.List([nnx.Linear(a, b, rngs=rngs) for a, b in zip(features[:-1], features[1:])])
        self.head = nnx.Linear(features[-1], 1, rngs=rngs)

    def __call__(self, x):
        for block in self.blocks:
            x = nnx.relu(block(x))
        return self.head(x)


model = MLP([4, 8, 8], rngs=nnx.Rngs(0))
y = nnx.jit(lambda m, x: m(x))(model, jnp.ones((3, 4)))
print(y.shape, model.features, model.sizes)
