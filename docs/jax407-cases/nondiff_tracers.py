"""What custom_vjp's nondiff_argnums accepts: each row calls `scale(s, p) = s * p`, whose `s` is
listed in nondiff_argnums (or, in the fixed form, is an ordinary argument whose bwd cotangent is
None), with `s` a Python float or a tracer of an outer transform."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def listed(s, p):
    return s * p


listed.defvjp(lambda s, p: (s * p, ()), lambda s, res, g: (s * g,))


@jax.custom_vjp
def ordinary(s, p):
    return s * p


ordinary.defvjp(lambda s, p: (s * p, (s, ())), lambda saved, g: (None, *(saved[0] * g,)))


@partial(jax.custom_jvp, nondiff_argnums=(0,))
def listed_jvp(s, p):
    return s * p


listed_jvp.defjvp(lambda s, primals, tangents: (s * primals[0], s * tangents[0]))


def rows(f):
    return {
        "eager, Python float": lambda: f(0.5, 3.0),
        "grad over p, Python float": lambda: jax.grad(lambda p: f(0.5, p))(3.0),
        "inside jit, s a jit parameter": lambda: jax.jit(lambda s, p: f(s, p))(0.5, 3.0),
        "inside jit, grad over p": lambda: jax.grad(jax.jit(lambda s, p: f(s, p)), argnums=1)(0.5, 3.0),
        "vmap over s": lambda: jax.vmap(lambda s: f(s, 3.0))(jnp.array([0.5, 1.5])),
        "grad over s": lambda: jax.grad(lambda s: f(s, 3.0))(0.5),
    }


def run(thunk):
    try:
        value = thunk()
        return f"{jnp.round(jnp.asarray(value), 4).tolist()}"
    except Exception as error:  # noqa: BLE001 - the row prints which error
        return type(error).__name__


print("| call | custom_vjp, s in nondiff_argnums | custom_vjp, s ordinary, bwd gives None | custom_jvp, s in nondiff_argnums |")
print("|---|---|---|---|")
for name in rows(listed):
    cells = [run(rows(f)[name]) for f in (listed, ordinary, listed_jvp)]
    print(f"| {name} | " + " | ".join(cells) + " |")
