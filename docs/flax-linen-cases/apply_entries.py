"""How flax linen's `apply` hands its arguments to a Module's `__call__` under jit.

Each row runs MLP.__call__(self, x, train), which does `if train:`, through one entry.
"""
import jax
import jax.numpy as jnp
import flax.linen as nn


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        x = nn.Dense(2)(x)
        if train:
            x = x * 2
        return x.sum()


model = MLP()
x = jnp.ones((1, 3))
variables = model.init(jax.random.PRNGKey(0), x, False)


@jax.jit
def step_literal(variables, x):
    return model.apply(variables, x, True, rngs={"dropout": jax.random.PRNGKey(1)})


@jax.jit
def step_param(variables, x, train):
    return model.apply(variables, x, train)


rows = [
    ("jax.jit(model.apply)(v, x, True)", lambda: jax.jit(model.apply)(variables, x, True)),
    ("jax.jit(model.apply, static_argnums=2)(v, x, True)", lambda: jax.jit(model.apply, static_argnums=2)(variables, x, True)),
    ("jax.jit(model.apply, static_argnames='train')(v, x, True)", lambda: jax.jit(model.apply, static_argnames="train")(variables, x, True)),
    ("jax.jit(model.apply, static_argnames='train')(v, x, train=True)", lambda: jax.jit(model.apply, static_argnames="train")(variables, x, train=True)),
    ("model.apply(v, x, True, rngs=...) inside a jit", lambda: step_literal(variables, x)),
    ("jitted step passes its parameter train to model.apply", lambda: step_param(variables, x, True)),
    ("model.apply(v, x, True) eagerly", lambda: model.apply(variables, x, True)),
]
for name, thunk in rows:
    try:
        thunk()
        print(f"| `{name}` | runs |")
    except Exception as error:  # noqa: BLE001 - the row prints what was raised
        print(f"| `{name}` | {type(error).__name__} |")
