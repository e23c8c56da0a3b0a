"""Compute a size where the data is concrete, and pass it in as a new static argument.

``s = random.normal(key, (jnp.unique(volume).size,))`` inside a jitted
``model`` needs the number of distinct values of ``volume``, a traced
parameter: no trace can have it (numpyro#853). Where every call of the jit
hands ``volume`` a concrete value (module code, or a function only module code
calls plainly), the same expression computed there gives the Python int the
trace needs: the jitted function takes it as a new parameter, static on its
jit, and each call passes it (``n_volume=jnp.unique(volume).size``), the
parameter read replaced by the argument the call passes for it. The maintainers'
fix in numpyro#853 is that one, written by hand.

Proof obligations, each refused with the reason:

* the needed value ends in an int by construction: ``.size``, ``.ndim``,
  ``.shape[i]`` or ``len(...)`` of an expression that only computes (names,
  attributes, constant subscripts, arithmetic, jax.numpy/math calls) from the
  jitted function's parameters, never rebound there, and module-level names
  each call site sees the same;
* every way into the function is a call through one jit (`through_jits`), in
  this module only, that passes each of those parameters a plain name or
  attribute read (evaluating it twice changes nothing) and runs eagerly (module
  code, or a def the module calls plainly from module code), without ``*``/``**``;
* the function has no ``**kwargs``; the new name is used nowhere in the module;
* the jit's static arguments can be edited in its own spelling.

Each distinct size then compiles once, as a static argument does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.core.textedit import apply_edits
from jaxfix.transforms.edits.fresh_names import fresh_name
from jaxfix.transforms.repairs.static_parameter import static_edit, through_jits
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.constants import reaching_parameter, single_binding
from jaxfix.transforms.semantics.jit_signature import Kind, Param, Signature
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.passed_arguments import call_argument
from jaxfix.transforms.semantics.purity import PURE_FUNCTION_PREFIXES, name_chain
from jaxfix.transforms.semantics.reads import names_read
from jaxfix.transforms.semantics.tracing import Route

#: Attributes of an array that are Python ints when it is concrete.
_INT_ATTRIBUTES = frozenset({"size", "ndim"})


@dataclass(frozen=True)
class Hoisted:
    edits: tuple[Edit, ...]
    #: The new static parameter.
    name: str
    #: What the first call passes for it.
    passed: str


def hoist_to_callers(analysis: Analysis, fn: cst.FunctionDef, sink: cst.CSTNode) -> Hoisted | str:
    """The edits computing the int `sink` (a value-shaped call) leads to at every call of `fn`;
    else why that is not proven."""
    ctx = analysis.ctx
    needed = _int_valued(ctx, sink)
    if needed is None:
        return "the value it leads to is no size read off the result (`.size`, `.shape[i]`, `len`)"
    if ctx.enclosing_function(needed) is not fn:
        return "the value is computed in a nested function"
    reads = _reads(ctx, fn, needed)
    if isinstance(reads, str):
        return reads
    if not reads:
        return "the value reads no parameter"
    info = function_info(ctx, fn)
    if info.signature.has_var_keyword:
        return f"`{fn.name.value}` takes `**kwargs`"
    name = _new_name(ctx, reads)
    passed: list[tuple[cst.Call, str]] = []

    def each_call(route: Route) -> str | None:
        found = _passed_at(analysis, fn, info.signature, route, needed, reads, name)
        if isinstance(found, str):
            return found
        passed.append((route.call, found[0]))  # type: ignore[arg-type]
        return None

    entry = through_jits(analysis, fn, each_call, ", so it may not run where the data is concrete")
    if isinstance(entry, str):
        return entry
    jits, elsewhere = entry
    if elsewhere:
        return "another module of the project calls it"
    edits: list[Edit] = [ctx.replace(needed, name), _parameter_edit(ctx, fn, name)]
    for call, text in passed:
        edits.append(_keyword_edit(ctx, call, name, text))
    for jit in jits:
        edit = static_edit(analysis, fn, jit, (name,), added=(Param(name, Kind.KEYWORD_ONLY),))
        if isinstance(edit, str):
            return edit
        edits.extend(edit[0])
    if len(set(edits)) != len(edits):
        return "two of the edits overlap"
    return Hoisted(tuple(edits), name, passed[0][1])


def _int_valued(ctx: ModuleContext, node: cst.CSTNode) -> cst.BaseExpression | None:
    """The expression around `node` that is a Python int once its arrays are concrete:
    ``jnp.unique(v).size``, ``jnp.nonzero(m)[0].shape[0]``, ``len(jnp.unique(v))``."""
    current = node
    while True:
        parent = ctx.parent(current)
        if isinstance(parent, cst.Attribute) and parent.value is current and parent.attr.value in _INT_ATTRIBUTES:
            return parent
        if isinstance(parent, cst.Attribute) and parent.value is current and parent.attr.value == "shape":
            outer = ctx.parent(parent)
            if isinstance(outer, cst.Subscript) and outer.value is parent and _constant_index(outer):
                return outer
            return None
        if isinstance(parent, cst.Arg) and isinstance(grand := ctx.parent(parent), cst.Call):
            if ctx.names.qualified_name(grand.func) == "builtins.len" and len(grand.args) == 1:
                return grand
            return None
        if isinstance(parent, cst.Subscript) and parent.value is current and _constant_index(parent):
            current = parent  # `jnp.nonzero(m)[0]`: still an array
            continue
        return None


def _constant_index(subscript: cst.Subscript) -> bool:
    return len(subscript.slice) == 1 and isinstance(subscript.slice[0].slice, cst.Index) and isinstance(
        subscript.slice[0].slice.value, cst.Integer
    )


def _reads(ctx: ModuleContext, fn: cst.FunctionDef, expr: cst.BaseExpression) -> list[cst.Name] | str:
    """The parameter reads of `expr`, once it is shown to only compute from parameters of `fn`
    that it never rebinds and from module-level names."""
    reads: list[cst.Name] = []
    stack: list[cst.CSTNode] = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Call):
            qualified = ctx.names.qualified_name(node.func) or ""
            if not qualified.startswith(PURE_FUNCTION_PREFIXES) and qualified != "builtins.len":
                return f"`{ctx.code(node.func)}` may do more than compute"
            if any(a.star or a.keyword is not None and a.keyword.value == "size" for a in node.args):
                return "a call takes `*` arguments or a `size=`"
            stack.extend(a.value for a in node.args)
            continue
        if isinstance(node, cst.Attribute):
            stack.append(node.value)  # the attribute's own name is no read
            continue
        if isinstance(node, cst.Name):
            binding = single_binding(ctx, node)
            if isinstance(binding, cst.Param):
                if reaching_parameter(ctx, node) is not binding or ctx.enclosing_function(binding) is not fn:
                    return f"`{node.value}` is bound again in `{fn.name.value}`"
                reads.append(node)
            elif binding is None or ctx.enclosing_function(binding) is not None or ctx.enclosing_class(binding) is not None:
                return f"`{node.value}` is no parameter of `{fn.name.value}` nor a module-level name"
            continue
        if isinstance(node, cst.BinaryOperation):
            stack.extend((node.left, node.right))
            continue
        if isinstance(node, cst.UnaryOperation):
            stack.append(node.expression)
            continue
        if isinstance(node, cst.Subscript):
            stack.append(node.value)
            for element in node.slice:
                if not isinstance(element.slice, cst.Index):
                    return "a slice bound may do more than compute"
                stack.append(element.slice.value)
            continue
        if isinstance(node, (cst.Tuple, cst.List)):
            stack.extend(e.value for e in node.elements)
            continue
        if isinstance(node, (cst.Integer, cst.Float)):
            continue
        return f"`{ctx.code(node)}` may do more than compute"  # type: ignore[arg-type]
    return reads


def _new_name(ctx: ModuleContext, reads: list[cst.Name]) -> str:
    """``n_<parameter>`` (``n_volume``), a word found nowhere in the module's text (a string
    naming it in ``static_argnames`` counts)."""
    return fresh_name("n_" + "_".join(dict.fromkeys(r.value for r in reads)), re.findall(r"\w+", ctx.text))


def _passed_at(
    analysis: Analysis, fn: cst.FunctionDef, sig: Signature, route: Route, needed: cst.BaseExpression,
    reads: list[cst.Name], name: str,
) -> tuple[str] | str:
    """(the value's text at the route's call: each parameter read replaced by what the call
    passes,); else why not."""
    ctx = analysis.ctx
    call = route.call
    line = ctx.span(call).start.line  # type: ignore[arg-type]
    if call is None or route.bound or any(a.star for a in call.args):
        return f"the call on line {line} hands its arguments on with `*` or binds a receiver"
    if any(a.keyword is not None and a.keyword.value == name for a in call.args):
        return f"the call on line {line} passes `{name}` already"
    caller = ctx.enclosing_function(call)
    if caller is not None and not _eager(analysis, caller):
        return f"the call on line {line} is in `{ctx.code(caller.name) if isinstance(caller, cst.FunctionDef) else 'a lambda'}`, which may run traced"
    if caller is not None and _locally_bound(ctx, caller, needed, reads):
        return f"a module-level name the value reads is bound again in the caller of line {line}"
    replacements: list[Edit] = []
    start = ctx.start(needed)
    for read in reads:
        argument = call_argument(call, sig, read.value, bound=False, consumed=route.consumed, ctx=ctx)
        if not isinstance(argument, cst.BaseExpression) or not name_chain(argument):
            return f"the call on line {line} passes `{read.value}` something other than a name to read again"
        replacements.append(Edit(ctx.start(read) - start, ctx.end(read) - start, ctx.code(argument)))
    return (apply_edits(ctx.code(needed), replacements),)


def _eager(analysis: Analysis, caller: cst.CSTNode) -> bool:
    """A def the module only calls plainly, from module code: it runs with the values it is given."""
    ctx = analysis.ctx
    if not isinstance(caller, cst.FunctionDef) or function_info(ctx, caller).jit is not None:
        return False
    routes = analysis.traces.routes(caller)
    return bool(routes) and all(
        not r.wraps and r.call is not None and not r.escapes and ctx.enclosing_function(r.call) is None for r in routes
    )


def _locally_bound(ctx: ModuleContext, caller: cst.CSTNode, needed: cst.BaseExpression, reads: list[cst.Name]) -> bool:
    """A module-level name `needed` reads has a binding of its own in the caller."""
    names = {n.value for n in names_read(needed)} - {r.value for r in reads}
    for node in names_read(caller):
        if node.value in names:
            binding = single_binding(ctx, node)
            if binding is None or ctx.enclosing_function(binding) is caller:
                return True
    return False


def _parameter_edit(ctx: ModuleContext, fn: cst.FunctionDef, name: str) -> Edit:
    """`name` joins the signature: keyword-only where a ``*`` or a default makes that the only
    place, else last."""
    params = fn.params
    star = params.star_arg if isinstance(params.star_arg, (cst.Param, cst.ParamStar)) else None
    kwonly_place = star is not None or bool(params.kwonly_params) or any(p.default is not None for p in params.params)
    last = [*params.posonly_params, *params.params]
    if isinstance(star, cst.Param):
        last.append(star)
    last.extend(params.kwonly_params)
    if not last:
        if star is not None:  # `def f(*, ...)` with nothing after the star cannot be written
            at = ctx.end(star)
            return Edit(at, at, f", {name}")
        at = ctx.end(fn.name) + 1  # past the `(`
        return Edit(at, at, name)
    anchor = last[-1].default or last[-1].annotation or last[-1].name
    separator = ", *, " if kwonly_place and star is None else ", "
    # A replacement, not an insertion: two hoists into one def overlap here, so the engine applies
    # one per pass and the next finds its name taken (insertions at one point never conflict).
    return Edit(ctx.start(anchor), ctx.end(anchor), f"{ctx.code(anchor)}{separator}{name}")


def _keyword_edit(ctx: ModuleContext, call: cst.Call, name: str, text: str) -> Edit:
    if call.args:
        last = call.args[-1].value
        return Edit(ctx.start(last), ctx.end(last), f"{ctx.code(last)}, {name}={text}")
    at = ctx.end(call.func) + 1  # past the call's `(`
    return Edit(at, at, f"{name}={text}")
