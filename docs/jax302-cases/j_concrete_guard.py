"""A validation guard on a value that may be traced (quantum-rf-pdk#766): `if n < 1: raise` fails
on a tracer; guarded by `not isinstance(n, jax.core.Tracer) and ...` it checks every concrete
value and steps aside for a tracer (jit, vmap, grad)."""

import jax
import jax.numpy as jnp


def plain(n):
    if n < 1:
        raise ValueError("n must be >= 1")
    return jnp.arange(5.0).sum() * n


def guarded(n):
    if not isinstance(n, jax.core.Tracer) and n < 1:
        raise ValueError("n must be >= 1")
    return jnp.arange(5.0).sum() * n


def outcome(run) -> str:
    try:
        return f"returns {float(run())}"
    except Exception as e:  # noqa: BLE001 - the table records the error's type
        return type(e).__name__


if __name__ == "__main__":
    print(f"jax {jax.__version__}")
    print("| call | plain `if n < 1: raise` | guarded |")
    print("|---|---|---|")
    for label, make in (
        ("eager, n=2", lambda f: lambda: f(2)),
        ("eager, n=0", lambda f: lambda: f(0)),
        ("jit, n=2 traced", lambda f: lambda: jax.jit(f)(2)),
        ("vmap over n=[2, 3] (sum)", lambda f: lambda: jax.vmap(f)(jnp.array([2, 3])).sum()),
        ("grad at n=2.0", lambda f: lambda: jax.grad(f)(2.0)),
    ):
        print(f"| {label} | {outcome(make(plain))} | {outcome(make(guarded))} |")
