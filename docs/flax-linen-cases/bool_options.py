"""Which flax.linen layer options need a Python bool: each row passes a jitted function's
parameter (a tracer) or a Python bool to one option of Dropout or BatchNorm."""

import jax
import jax.numpy as jnp
import flax.linen as nn

X = jnp.ones((2, 3))
ROWS = {
    "Dropout(0.5, deterministic=flag)(x)": lambda flag: nn.Dropout(0.5, deterministic=flag),
    "Dropout(0.5)(x, deterministic=flag)": lambda flag: (nn.Dropout(0.5), {"deterministic": flag}),
    "BatchNorm(use_running_average=flag)(x)": lambda flag: nn.BatchNorm(use_running_average=flag),
    "BatchNorm()(x, use_running_average=flag)": lambda flag: (nn.BatchNorm(), {"use_running_average": flag}),
}


def run(build, flag, traced):
    def apply(flag):
        made = build(flag)
        layer, kwargs = made if isinstance(made, tuple) else (made, {})
        v = layer.init({"params": jax.random.key(0), "dropout": jax.random.key(1)}, X, **{k: True for k in kwargs})
        out = layer.apply(v, X, rngs={"dropout": jax.random.key(2)}, mutable=["batch_stats"], **kwargs)
        return out[0] if isinstance(out, tuple) else out

    try:
        (jax.jit(apply) if traced else apply)(flag)
        return "runs"
    except Exception as error:  # noqa: BLE001 - the row prints which error
        return type(error).__name__


print("| option | Python bool | the jitted function's parameter |")
print("|---|---|---|")
for name, build in ROWS.items():
    print(f"| `{name}` | {run(build, True, False)} | {run(build, True, True)} |")
