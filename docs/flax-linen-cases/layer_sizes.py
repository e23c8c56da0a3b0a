"""Which flax.linen layer arguments need a concrete int: each row builds one layer whose size is a
Python int, or a jitted function's parameter (a tracer), or a jnp product of a static shape computed
in `setup` under `jax.jit(model.init)`."""

import jax
import jax.numpy as jnp
import flax.linen as nn

X = jnp.ones((2, 4, 4, 3))
ROWS = {
    "Dense(n)": lambda n: nn.Dense(n),
    "Dense(features=n)": lambda n: nn.Dense(features=n),
    "DenseGeneral(n)": lambda n: nn.DenseGeneral(n),
    "Conv(n, (3, 3))": lambda n: nn.Conv(n, (3, 3)),
    "Conv(4, (n, n))": lambda n: nn.Conv(4, (n, n)),
    "ConvTranspose(n, (3, 3))": lambda n: nn.ConvTranspose(n, (3, 3)),
    "Embed(n, 4)": lambda n: nn.Embed(n, 4),
    "Embed(10, n)": lambda n: nn.Embed(10, n),
    "GroupNorm(num_groups=n)": lambda n: nn.GroupNorm(num_groups=n),
    "MultiHeadDotProductAttention(n)": lambda n: nn.MultiHeadDotProductAttention(n),
}
INPUTS = {"Embed(n, 4)": jnp.ones((2, 3), int), "Embed(10, n)": jnp.ones((2, 3), int)}


def run(build, traced):
    x = INPUTS.get(name, X)

    def init(n):
        layer = build(n)
        args = (x, x) if isinstance(layer, nn.MultiHeadDotProductAttention) else (x,)
        return layer.init(jax.random.key(0), *args)

    try:
        (jax.jit(init) if traced else init)(3)
        return "runs"
    except Exception as error:  # noqa: BLE001 - the row prints which error
        return type(error).__name__


class Head(nn.Module):
    shape: tuple

    def setup(self):
        self.dense = nn.Dense(jnp.prod(jnp.asarray(self.shape)))

    def __call__(self, x):
        return self.dense(x)


def setup_row(entry):
    head = Head((3,))
    try:
        entry(head)
        return "runs"
    except Exception as error:  # noqa: BLE001
        return type(error).__name__


print("| layer | Python int | the jitted function's parameter |")
print("|---|---|---|")
for name, build in ROWS.items():
    print(f"| `{name}` | {run(build, False)} | {run(build, True)} |")
print()
print("| `setup` computes `nn.Dense(jnp.prod(jnp.asarray(self.shape)))` | result |")
print("|---|---|")
print(f"| `model.init(key, x)` | {setup_row(lambda m: m.init(jax.random.key(0), X))} |")
print(f"| `jax.jit(model.init)(key, x)` | {setup_row(lambda m: jax.jit(m.init)(jax.random.key(0), X))} |")
v = Head((3,)).init(jax.random.key(0), X)
print(f"| `jax.jit(model.apply)(v, x)` | {setup_row(lambda m: jax.jit(m.apply)(v, X))} |")
