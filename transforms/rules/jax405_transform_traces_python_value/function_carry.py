"""JAX405 for a function handed to a lax primitive as its carry or operand, itself or as a leaf of
an equinox module.

``lax.scan``, ``fori_loop`` and ``while_loop`` take every leaf of their carry as
an array, and ``lax.cond``/``switch`` every leaf of their operands. A Python
function is no JAX type, so the primitive fails before the body runs (``...
is not a valid JAX type``): a function carried itself (jax#6539 carries the
derivative closure ``vjp`` returns, a new one each step), or an equinox
module that holds one as a leaf, as an ``eqx.nn.MLP`` holds its activations
(`semantics.function_leaves`; equinox#446, #389, #630). ``eqx.nn.Linear``
holds arrays alone and passes, which is why such code works until the model
grows. Both are reported: a module's fix is equinox's split, ``params,
static = eqx.partition(model, eqx.is_array)``, the arrays through the
primitive and ``eqx.combine(params, static)`` where the module is used
again, and where that goes (the body, after the loop, the cond's result)
depends on the code around; a function that stays the same is closed over
or bound with ``functools.partial``, one that changes each step makes a
Python loop. A function as an operand of ``cond``/``switch`` is JAX103's,
which binds it into the branches.
"""

from __future__ import annotations

import ast

import libcst as cst

from jaxfix.transforms.core.findings import Finding, shorten
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.callables import python_function
from jaxfix.transforms.semantics.function_leaves import function_leaf
from jaxfix.transforms.semantics.vocabulary import LAX_PARAMETERS, OPERANDS, written_arguments

#: What each primitive calls the values it carries or hands its functions (their parameter
#: is `vocabulary.OPERANDS`).
_WHAT = {"init": "initial carry", "init_val": "initial carry", "*operands": "operands"}
_MODULE_OPTION = (
    "option: pass only its arrays: `params, static = eqx.partition(model, eqx.is_array)`; hand `params` to the "
    "primitive and rebuild the module with `eqx.combine(params, static)` where it is used (in the body, after it)"
)
_FUNCTION_OPTIONS = (
    "option: a function that stays the same needs no carrying: the body closes over it, or gets it with `functools.partial`",
    "option: a function that changes each step (a new closure) cannot be carried: make the loop a Python loop",
)


def function_carry_findings(analysis: Analysis) -> list[Finding]:
    ctx = analysis.ctx
    out: list[Finding] = []
    for call in ctx.calls:
        primitive = ctx.names.qualified_name(call.func) or ""
        if primitive not in OPERANDS:
            continue
        name, operands = primitive.rsplit(".", 1)[-1], OPERANDS[primitive]
        what, carried = _WHAT[operands], not operands.startswith("*")
        if name == "cond" and len([a for a in call.args if a.keyword is None and not a.star]) == 5:
            continue  # the old `cond(pred, true_operand, true_fun, false_operand, false_fun)`: a function there is a branch
        for value in (a.value for a in written_arguments(call, LAX_PARAMETERS[primitive], operands)):
            # a function operand of cond/switch is JAX103's, which binds it into the branches
            function = _function(ctx, value) if carried else None
            leaf = function_leaf(analysis, value, 0) if function is None else None
            if function is None and leaf is None:
                continue
            head = f"`{shorten(ctx.code(value))}`, in the {what} of `{name}`,"
            fails = f"`{name}` takes every leaf of its {what} as an array and fails (\"is not a valid JAX type\")"
            if function is not None:
                message, notes = f"{head} is a function ({function}), which is no JAX type; {fails}", _FUNCTION_OPTIONS
            else:
                message, notes = f"{head} is (or holds) an equinox module that holds {leaf} as a leaf; {fails}", (_MODULE_OPTION,)
            out.append(ctx.finding("JAX405", value, message, notes=notes))
            break
    return out


def _function(ctx, value: cst.BaseExpression) -> str | None:
    """How `value` is surely a Python function (`callables.python_function`), as a message says it."""
    function = python_function(ctx, value)
    if isinstance(function, cst.Lambda):
        return "a lambda"
    if function is None:
        return None
    return f"the staticmethod `{function.name.value}`" if isinstance(value, cst.Attribute) else f"the def `{function.name.value}`"


def function_carry_seeds(facts: Facts) -> list[ast.AST]:
    """Loops handed a lambda, an attribute (``Model.f``) or a name the module binds to a def or lambda
    as their carry (the whole module where equinox is imported: its module classes may be anywhere)."""
    calls = facts.control_flow_calls
    if not calls:
        return []
    if "equinox" in facts.text:
        return [facts.tree]
    defs = {n.name for n in facts.nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))} | {
        t.id for n in facts.nodes if isinstance(n, ast.Assign) and isinstance(n.value, ast.Lambda)
        for t in n.targets if isinstance(t, ast.Name)
    }
    out: list[ast.AST] = []
    for call in calls:
        primitive = f"jax.lax.{facts.control_flow_name(call)}"
        operands = OPERANDS.get(primitive, "*")
        if operands.startswith("*"):
            continue  # cond and switch: only an equinox module is followed there
        position = LAX_PARAMETERS[primitive].index(operands)
        values = [*call.args[position : position + 1], *(k.value for k in call.keywords if k.arg == operands)]
        if any(isinstance(v, (ast.Lambda, ast.Attribute)) or (isinstance(v, ast.Name) and v.id in defs) for v in values):
            out.append(call)
    return out
