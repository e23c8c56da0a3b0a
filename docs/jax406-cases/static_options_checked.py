"""jit checks its static options against the function when it wraps it (jax 0.10.2, CPU).

Each row wraps a function with one static option and calls it as `g(1.0, 2.0)`; a cell shows
where it fails (the exception's type and the start of its message) or what the call returns.
"""
import jax


def f(x, y):
    return x + y


def with_kwargs(x, y, **kw):
    return x + y


def keyword_only(x, y, *, z=1):
    return x + y + z


def with_args(x, *args):
    return x + sum(args)


def positional_only(x, y, /):
    return x + y


CASES = {
    "f(x, y), static_argnames=('z',)": lambda: jax.jit(f, static_argnames=("z",)),
    "f(x, y), static_argnames=('y', 'z')": lambda: jax.jit(f, static_argnames=("y", "z")),
    "f(x, y), static_argnums=5": lambda: jax.jit(f, static_argnums=5),
    "f(x, y), static_argnums=-3": lambda: jax.jit(f, static_argnums=-3),
    "f(x, y, **kw), static_argnames=('z',)": lambda: jax.jit(with_kwargs, static_argnames=("z",)),
    "f(x, y, *, z=1), static_argnames=('z',)": lambda: jax.jit(keyword_only, static_argnames=("z",)),
    "f(x, *args), static_argnums=1": lambda: jax.jit(with_args, static_argnums=1),
    "f(x, y, /), static_argnames=('y',)": lambda: jax.jit(positional_only, static_argnames=("y",)),
    "f(x, y, /), static_argnums=(1,)": lambda: jax.jit(positional_only, static_argnums=(1,)),
}


def short(error):
    return f"{type(error).__name__}: {str(error).splitlines()[0][:70]}"


print("| wrapped | when wrapped | the call `g(1.0, 2.0)` |")
print("|---|---|---|")
for name, make in CASES.items():
    try:
        g = make()
    except Exception as error:  # noqa: BLE001 - the type is the finding
        print(f"| `{name}` | {short(error)} | |")
        continue
    try:
        print(f"| `{name}` | ok | {float(g(1.0, 2.0))} |")
    except Exception as error:  # noqa: BLE001
        print(f"| `{name}` | ok | {short(error)} |")
