"""`p or default` of an optional parameter under jax.jit: which calls work (objax#92)."""
from functools import partial

import jax
import jax.numpy as jnp


@jax.jit
def traced(v, momentum=None):
    momentum = momentum or 0.9
    return momentum * v


@jax.jit
def is_none(v, momentum=None):
    momentum = 0.9 if momentum is None else momentum
    return momentum * v


@partial(jax.jit, static_argnames="momentum")
def static(v, momentum=None):
    momentum = momentum or 0.9
    return momentum * v


@jax.jit
def pytree(v, extras=None):
    extras = extras or {}
    return v + sum(extras.values())


def show(name, thunk):
    try:
        out = thunk()
        print(f"| `{name}` | {jnp.asarray(out).tolist()} |")
    except Exception as e:  # noqa: BLE001
        print(f"| `{name}` | {type(e).__name__} |")


v = jnp.ones(2)
show("traced(v)", lambda: traced(v))
show("traced(v, None)", lambda: traced(v, None))
show("traced(v, 0.5)", lambda: traced(v, 0.5))
show("traced(v, 0.0)", lambda: traced(v, 0.0))
show("is_none(v)", lambda: is_none(v))
show("is_none(v, 0.5)", lambda: is_none(v, 0.5))
show("is_none(v, 0.0)", lambda: is_none(v, 0.0))
show("static(v, 0.0)", lambda: static(v, 0.0))
show("pytree(v, {'w': jnp.ones(2)})", lambda: pytree(v, {"w": jnp.ones(2)}))
show("pytree(v, {})", lambda: pytree(v, {}))
