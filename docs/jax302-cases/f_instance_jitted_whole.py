"""F. An instance jitted whole, ``jax.jit(model)``: jit reads ``__call__``'s signature without ``self``.

gwpopulation jits its population models this way. Each row is one spelling; "ok" and what it
printed, or the error type.
"""
import jax
import jax.numpy as jnp


class Model:
    def __call__(self, x, c):
        if c == 0:
            return x * 2
        return x * 3


model = Model()
x = jnp.ones(2)
ROWS = [
    ("jax.jit(model)(x, c=0.3)", lambda: jax.jit(model)(x, c=0.3)),
    ('jax.jit(model, static_argnames=("c",))(x, c=0.3)', lambda: jax.jit(model, static_argnames=("c",))(x, c=0.3)),
    ("jax.jit(model, static_argnums=1)(x, 0.3)", lambda: jax.jit(model, static_argnums=1)(x, 0.3)),
    ("jax.jit(model, static_argnums=2)(x, 0.3)", lambda: jax.jit(model, static_argnums=2)(x, 0.3)),
    ('jax.jit(model, static_argnames=("c",))(x, **dict(c=0.3))', lambda: jax.jit(model, static_argnames=("c",))(x, **dict(c=0.3))),
]
print(f"jax {jax.__version__}")
print("| call | result |")
print("|---|---|")
for text, run in ROWS:
    try:
        out = f"ok: {run().tolist()}"
    except Exception as error:  # noqa: BLE001 - the table records what each spelling raises
        out = type(error).__name__
    print(f"| `{text}` | {out} |")
