"""flax.linen's lifted checkpoint (remat) with static_argnums: which position is the flag?
`Block.__call__(self, x, deterministic)` tests `deterministic` with an `if` (through Dropout);
each row wraps Block with one lifted transform and one static_argnums and runs it eagerly."""

import jax
import jax.numpy as jnp
import flax.linen as nn


class Block(nn.Module):
    @nn.compact
    def __call__(self, x, deterministic):
        y = nn.Dense(3)(x)
        return x + nn.Dropout(0.5, deterministic=deterministic)(y)


def run(lift, static_argnums):
    class Outer(nn.Module):
        @nn.compact
        def __call__(self, x, deterministic):
            return lift(Block, static_argnums=static_argnums)()(x, deterministic)

    x = jnp.ones((2, 3))
    try:
        variables = Outer().init(jax.random.key(0), x, True)
        Outer().apply(variables, x, True)
        return "runs"
    except Exception as error:  # noqa: BLE001 - the row prints which error
        return type(error).__name__


print("| transform | `static_argnums=(1,)` (x, counting self) | `static_argnums=(2,)` (deterministic) |")
print("|---|---|---|")
for name, lift in (("nn.checkpoint", nn.checkpoint), ("nn.remat", nn.remat)):
    print(f"| `{name}` | {run(lift, (1,))} | {run(lift, (2,))} |")


def run_jit(options, by_keyword):
    Lifted = nn.jit(Block, **options)
    x = jnp.ones((2, 3))
    model = Lifted()
    try:
        if by_keyword:
            variables = model.init(jax.random.key(0), x, deterministic=True)
            model.apply(variables, x, deterministic=True)
        else:
            variables = model.init(jax.random.key(0), x, True)
            model.apply(variables, x, True)
        return "runs"
    except Exception as error:  # noqa: BLE001 - the row prints which error
        return type(error).__name__


print()
print("| `nn.jit(Block, ...)` | flag by keyword | flag by position |")
print("|---|---|---|")
for options in ({}, {"static_argnames": "deterministic"}, {"static_argnums": 2}):
    shown = ", ".join(f"{k}={v!r}" for k, v in options.items()) or "no options"
    print(f"| {shown} | {run_jit(options, True)} | {run_jit(options, False)} |")
