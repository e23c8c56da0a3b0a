import jax.numpy as jnp
from flax import nnx


class Heads(nnx.Module):
    def __init__(self, sizes, rngs):
        self.names = []
        for name, size in sizes.items():
            self.names.append(name)
            setattr(self, name, nnx.Linear(3, size, rngs=rngs))

    def __call__(self, x):
        return {name: getattr(self, name)(x).sum() for name in self.names}


@nnx.jit
def forward(heads, x):
    return heads(x)


heads = Heads({"policy": 2, "value": 1}, nnx.Rngs(0))
out = forward(heads, jnp.ones(3))
print({k: round(float(v), 4) for k, v in sorted(out.items())})
