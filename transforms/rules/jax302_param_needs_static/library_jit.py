"""JAX302 for a library function jitted at its call: ``jit(one_hot)(labels, 5)``.

A jnp, nn or random function that takes a size (`sinks.SIZE_ARGUMENTS`: ``one_hot``'s
``num_classes``, ``zeros``' shape) needs it as a Python value, and jit traces every argument it is
not told is static, so ``jax.jit(jax.nn.one_hot)(x, 5)`` fails where ``one_hot(x, 5)`` works
(``TypeError``/``ConcretizationTypeError`` inside the library). When the jit is written at the
call and takes the function alone, that call is the only one through it: the size's slot becomes
static there (``static_argnums=1``; ``static_argnames=("num_classes",)`` when passed by keyword),
proven when the call passes a hashable Python value (an int, or a tuple of ints). A size passed
anything else is left alone: the analysis of user functions (the rest of JAX302) does not see
into the library, and a guess would be a wrong fix.
"""

from __future__ import annotations

import ast

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Edit, Finding
from jaxfix.transforms.gate.screen import Facts, qualified_spellings
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.constants import constant_value
from jaxfix.transforms.semantics.sinks import SIZE_ARGUMENTS
from jaxfix.transforms.semantics.vocabulary import JIT

#: The library functions this applies to, with how many leading positional parameters a call may
#: fill: the sizes and the array data only. A later parameter (a dtype, an axis, ``endpoint``) would
#: need to be static too, and a keyword argument may be one: a call passing either is left alone.
#: Each row was run with real JAX, jitted this way (docs/jax302-behaviour.md, E); each is a
#: `SIZE_ARGUMENTS` row with its positions listed, or a reduction whose axis is its second
#: argument (`AXIS_SLOT`; a test holds them to it).
LEADING: dict[str, int] = {
    "jax.nn.one_hot": 2,
    "jax.numpy.zeros": 1,
    "jax.numpy.ones": 1,
    "jax.numpy.empty": 1,
    "jax.numpy.full": 2,
    "jax.numpy.reshape": 2,
    "jax.numpy.broadcast_to": 2,
    "jax.numpy.tile": 2,
    "jax.numpy.linspace": 3,
    "jax.numpy.fft.fft": 2,
    "jax.numpy.fft.ifft": 2,
    "jax.numpy.fft.rfft": 2,
    "jax.numpy.fft.irfft": 2,
    "jax.random.normal": 2,
    "jax.random.uniform": 2,
    "jax.random.randint": 4,
    "jax.random.bernoulli": 3,
    "jax.random.split": 2,
    "jax.random.poisson": 3,
    "jax.random.gamma": 3,
    # Reductions and axis functions (array, axis): the axis must be static (jax#4412).
    **{f"jax.numpy.{name}": 2 for name in (
        "sum", "mean", "max", "min", "prod", "argmax", "argmin", "cumsum", "cumprod", "std", "var", "any",
        "all", "squeeze", "expand_dims", "flip", "sort", "argsort", "median", "nansum", "ptp", "count_nonzero",
    )},
}

#: The slot of those reductions' axis, as `SIZE_ARGUMENTS` gives a size's: (what, positions, keywords).
AXIS_SLOT = ("axis", (1,), ("axis",))


def slot(qualified: str) -> tuple[str, tuple[int, ...] | str, tuple[str, ...]]:
    """Where `qualified` takes what must be static: its size (`SIZE_ARGUMENTS`) or its axis."""
    return SIZE_ARGUMENTS.get(qualified, AXIS_SLOT)


def findings(analysis: Analysis) -> list[Finding]:
    ctx = analysis.ctx
    out: list[Finding] = []
    for call in ctx.calls:
        jit = call.func
        if not isinstance(jit, cst.Call) or not ctx.names.is_api(jit.func, JIT):
            continue
        if len(jit.args) != 1 or jit.args[0].keyword is not None or jit.args[0].star or any(a.star for a in call.args):
            continue
        function = jit.args[0].value
        qualified = ctx.names.qualified_name(function) or ""
        if qualified not in LEADING:
            continue
        what, positions, keywords = slot(qualified)
        positional = [a for a in call.args if a.keyword is None]
        keyworded = [a for a in call.args if a.keyword is not None]
        if len(positional) > LEADING[qualified] or any(a.keyword.value not in keywords for a in keyworded):  # type: ignore[union-attr]
            continue
        numbers = [i for i in range(len(positional)) if i in positions]  # type: ignore[operator]
        names = [a.keyword.value for a in keyworded]  # type: ignore[union-attr]
        sizes = [positional[i] for i in numbers] + keyworded
        if not sizes or not all(_hashable_size(constant_value(ctx, a.value)) for a in sizes):
            continue
        options = []
        if numbers:
            options.append(f"static_argnums={numbers[0]}" if len(numbers) == 1 else f"static_argnums={tuple(numbers)}")
        if names:
            options.append("static_argnames=(" + ", ".join(f'"{n}"' for n in names) + ",)")
        added = ", " + ", ".join(options)
        shown = ctx.code(function)
        message = (
            f"`{shown}` needs its {what} as a Python value, but `{ctx.code(jit)}` traces every argument; "
            f"this call passes {', '.join(f'`{ctx.code(a.value)}`' for a in sizes)}: make it static at this jit"
        )
        out.append(
            ctx.finding(
                "JAX302",
                jit,
                message,
                (Edit(ctx.end(function), ctx.end(function), added),),
                Applicability.SAFE,
                description=f"`{ctx.code(jit.func)}({shown}{added})`",
                notes=("each distinct value compiles once",),
            )
        )
    return out


def _hashable_size(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, tuple) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)


def seeds(facts: Facts) -> list[ast.AST]:
    """``jit(f)(...)`` calls whose `f` may be a library function with a size argument."""
    out: list[ast.AST] = []
    for call in facts.calls:
        jit = call.func
        if isinstance(jit, ast.Call) and len(jit.args) == 1 and not jit.keywords:
            if any(q in LEADING for q in qualified_spellings(facts, jit.args[0])):
                out.append(call)
    return out
