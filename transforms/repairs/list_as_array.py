"""Index a Python list of arrays with a tracer: index the array the same statement converts it to.

``dist[jnp.argmin(jnp.asarray(dist))]`` under jit fails (jax#5839): a Python
list's ``__getitem__`` needs a concrete int, and ``argmin`` gives a tracer. The
statement already converts the list (``jnp.asarray(dist)``), so the item is
read from that array: ``jnp.asarray(dist)[jnp.argmin(jnp.asarray(dist))]``, the
reporter's own fix.

Proof obligations, each refused with the reason:

* the list is a name whose binding that reaches the read is ``dist = []`` in
  the same function, and the only other read of that binding besides the
  statement's own is one ``dist.append(item)``, with ``item`` a JAX array
  (`array_values.array_origin`, not a NumPy one): every item comes from the
  same expression, so all share a dtype, and the conversion keeps each value
  as it was;
* the same statement converts that list whole with ``jnp.asarray``,
  ``jnp.array`` or ``jnp.stack``: the items share a shape (else that conversion
  fails first), and the rewrite spells the conversion as the statement does.

A list of Python numbers, of functions (``lax.switch``'s business), or built
any other way is left to the report.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.constants import assigned_value, reaching_binding
from jaxfix.transforms.semantics.reads import reads

#: jax.numpy functions that make one array of a list of same-shaped arrays.
_CONVERSIONS = frozenset({"jax.numpy.asarray", "jax.numpy.array", "jax.numpy.stack"})


def index_the_array(analysis: Analysis, subscript: cst.Subscript) -> tuple[Edit, str] | str:
    """(the edit, the new subscript) reading `subscript`'s item from the array the statement
    makes of its list; else why not."""
    ctx = analysis.ctx
    seq = subscript.value
    if not isinstance(seq, cst.Name):
        return "the list is not a name"
    binding = reaching_binding(ctx, seq)
    if not isinstance(binding, cst.Name) or not _empty_list(assigned_value(ctx, binding)):
        return f"`{seq.value}` is not shown to be built from `[]` in this function"
    statement = ctx.statement_of(subscript)
    conversion = next((c for c in sorted(ctx.descendants(statement, cst.Call), key=ctx.start) if _converts(ctx, c, binding)), None)
    if conversion is None:
        return f"nothing in the statement converts `{seq.value}` to an array, which would show its items share a shape"
    appended = []
    for read in reads(ctx, binding):
        reaching = reaching_binding(ctx, read)  # type: ignore[arg-type]
        if reaching is None:
            return f"the binding line {ctx.span(read).start.line} reads `{seq.value}` from is not shown"
        if reaching is not binding:
            continue
        if any(a is statement for a in ctx.ancestors(read)):
            continue
        item = _appended(ctx, read)
        if item is None:
            return f"`{seq.value}` is used otherwise on line {ctx.span(read).start.line}"
        appended.append(item)
    if len(appended) != 1:
        return f"`{seq.value}` is appended to in {len(appended)} places; its items may differ in dtype"
    origin = array_origin(analysis, appended[0]) or ""
    if not origin or "NumPy" in origin:
        return f"`{ctx.code(appended[0])}` is not shown to be a JAX array"
    text = ctx.code(conversion)
    return ctx.replace(seq, text), f"{text}[{ctx.code(subscript.slice[0].slice)}]"


def _empty_list(value: cst.BaseExpression | None) -> bool:
    return isinstance(value, cst.List) and not value.elements


def _converts(ctx, call: cst.Call, binding: cst.Name) -> bool:
    """``jnp.asarray(dist)``: one positional argument, a read of `binding`."""
    if ctx.names.qualified_name(call.func) not in _CONVERSIONS or len(call.args) != 1:
        return False
    arg = call.args[0]
    return arg.keyword is None and not arg.star and isinstance(arg.value, cst.Name) and reaching_binding(ctx, arg.value) is binding


def _appended(ctx, read: cst.CSTNode) -> cst.BaseExpression | None:
    """`item` of the statement ``dist.append(item)`` that `read` is the ``dist`` of; else None."""
    attribute = ctx.parent(read)
    call = ctx.parent(attribute) if isinstance(attribute, cst.Attribute) and attribute.attr.value == "append" else None
    if not isinstance(call, cst.Call) or call.func is not attribute or len(call.args) != 1 or call.args[0].keyword or call.args[0].star:
        return None
    expression = ctx.parent(call)
    return call.args[0].value if isinstance(expression, cst.Expr) else None


