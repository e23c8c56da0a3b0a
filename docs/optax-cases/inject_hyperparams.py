"""Which optax optimizers fail when `optax.inject_hyperparams` wraps them and jit runs them.

Every public optax function taking a `learning_rate` is wrapped with
`inject_hyperparams(opt)(learning_rate=0.1)`, its `init` and `update` jitted on a small
pytree; a failure is retried with one or two of its int/float/bool hyperparameters in
`static_args`. Prints the ones that fail, and what (if anything) mends them.

    JAX_PLATFORMS=cpu python docs/optax-cases/inject_hyperparams.py
"""
import inspect
import itertools
import warnings

import jax
import jax.numpy as jnp
import optax

warnings.simplefilter("ignore")
params = {"w": jnp.ones((200, 200)), "b": jnp.ones((200,))}
grads = {"w": jnp.full((200, 200), 0.5), "b": jnp.full((200,), 0.25)}


def run(opt, static):
    wrapped = optax.inject_hyperparams(opt, static_args=static)(learning_rate=0.1)
    state = jax.jit(wrapped.init)(params)
    jax.jit(wrapped.update)(grads, state, params)


tried = 0
for name in sorted(n for n in dir(optax) if not n.startswith("_")):
    fn = getattr(optax, name)
    if not inspect.isfunction(fn):
        continue
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        continue
    if "learning_rate" not in signature.parameters:
        continue
    tried += 1
    try:
        run(fn, ())
        continue
    except Exception as error:  # noqa: BLE001 - every failure is the finding
        kind = type(error).__name__
    numbers = [p for p, v in signature.parameters.items()
               if isinstance(v.default, (int, float, bool)) and p != "learning_rate"]
    mended = None
    for size in (1, 2):
        for combo in itertools.combinations(numbers, size):
            try:
                run(fn, combo)
            except Exception:  # noqa: BLE001
                continue
            mended = combo
            break
        if mended:
            break
    print(f"{name}: {kind}; static_args that mend it: {mended}")
print(f"{tried} optimizers tried")
