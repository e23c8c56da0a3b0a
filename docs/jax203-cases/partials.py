"""Which partials the hashing JAX functions accept: eqx.Partial against jax.tree_util.Partial.

Run: cd docs/jax203-cases && JAX_PLATFORMS=cpu python partials.py
"""

import equinox as eqx
import jax
import jax.numpy as jnp


def step(carry, x, rate):
    return carry * rate + x, carry


def step_positional(rate, carry, x):
    return carry * rate + x, carry


def body(i, acc, scale):
    return acc + i * scale


CASES = {
    "hash(eqx.Partial(step, rate=0.5))": lambda: hash(eqx.Partial(step, rate=0.5)),
    "hash(eqx.Partial(step_positional, 0.5))  (no keywords)": lambda: hash(eqx.Partial(step_positional, 0.5)),
    "lax.scan(eqx.Partial(step, rate=0.5), ...)": lambda: jax.lax.scan(eqx.Partial(step, rate=0.5), 0.0, jnp.arange(3.0))[0],
    "lax.fori_loop(0, 3, eqx.Partial(body, scale=2.0), 0.0)": lambda: jax.lax.fori_loop(0, 3, eqx.Partial(body, scale=2.0), 0.0),
    "jax.jit(eqx.Partial(step, rate=0.5))(1.0, 2.0)": lambda: jax.jit(eqx.Partial(step, rate=0.5))(1.0, 2.0)[0],
    "lax.scan(jax.tree_util.Partial(step, rate=0.5), ...)": lambda: jax.lax.scan(jax.tree_util.Partial(step, rate=0.5), 0.0, jnp.arange(3.0))[0],
    "lax.fori_loop(0, 3, jax.tree_util.Partial(body, scale=2.0), 0.0)": lambda: jax.lax.fori_loop(0, 3, jax.tree_util.Partial(body, scale=2.0), 0.0),
    "jax.jit(jax.tree_util.Partial(step, rate=0.5))(1.0, 2.0)": lambda: jax.jit(jax.tree_util.Partial(step, rate=0.5))(1.0, 2.0)[0],
    "inside jit, rate traced: lax.scan(jax.tree_util.Partial(step, rate=r), ...)": lambda: jax.jit(
        lambda r: jax.lax.scan(jax.tree_util.Partial(step, rate=r), 0.0, jnp.arange(3.0))[0]
    )(0.5),
}

print("| call | result |")
print("|---|---|")
for name, run in CASES.items():
    try:
        result = run()
        shown = "ok" if isinstance(result, int) and "hash" in name else f"ok: {float(result):.4g}"
    except Exception as error:  # noqa: BLE001 - the table shows what each raises
        shown = f"{type(error).__name__}: {str(error).splitlines()[0][:80]}"
    print(f"| `{name}` | {shown} |")
