"""Where a helper's return value goes: the calls of the helper, when they are all the module has.

A value a helper computes and returns (tfp's JAX backend: ``def shape(x): return
jnp.asarray(jnp.shape(x), dtype=jnp.int32)`` as ``tf.shape``) goes where each call's result
goes. A repair that changes what the helper returns (NumPy's twin computing it concretely)
changes it for every caller, so it is followed only where every caller can be seen:

* a def at module level (or in a function's own body), undecorated, every read of its name a call of it; or a
  ``@staticmethod`` of a class written there too, used as a namespace: every read of
  the class's name is ``Cls.attr`` (no instance is built, no subclass, the class
  is not handed on) and every ``Cls.helper`` is a call;
* no other module of the project imports the def or the class;
* or a method whose name has one leading underscore (the class's own business), undecorated,
  every read of its name in the module a call on the receiver in a method of its own class, no
  other def of the module so named (a subclass's would run instead), the class not imported by
  another module;
* the def is no generator (its ``return`` ends iteration, it gives no value).
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.semantics.constants import single_binding
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.reads import reads


def result_calls(ctx: ModuleContext, fn: cst.FunctionDef) -> list[cst.Call] | str:
    """Every call of `fn` in the module, whose result is what `fn` returns; or why they are not
    all shown."""
    name = fn.name.value
    if ctx.descendants(fn, cst.Yield):
        return f"`{name}` is a generator"
    if _top_level(ctx, fn) and not fn.decorators:
        return _called_by_name(ctx, fn)
    holder = ctx.parent(ctx.parent(fn))
    if isinstance(holder, cst.ClassDef) and _top_level(ctx, holder) and _static(ctx, fn):
        return _called_on_class(ctx, holder, fn)
    if isinstance(holder, cst.ClassDef) and _top_level(ctx, holder) and _private_method(fn):
        return _called_on_self(ctx, holder, fn)
    return f"`{name}` is not a plain function of the module, so its callers are not all shown"


def _top_level(ctx: ModuleContext, node: cst.FunctionDef | cst.ClassDef) -> bool:
    """A statement of the module's body, or of a function's own body (``def main():``), where
    every read of its name is in that function."""
    parent = ctx.parent(node)
    return parent is ctx.module or (isinstance(parent, cst.IndentedBlock) and isinstance(ctx.parent(parent), cst.FunctionDef))


def _static(ctx: ModuleContext, fn: cst.FunctionDef) -> bool:
    return len(fn.decorators) == 1 and ctx.names.qualified_name(fn.decorators[0].decorator) == "builtins.staticmethod"


def _private_method(fn: cst.FunctionDef) -> bool:
    """``def _compute_per_event_ln_bayes_factors(self, ...)``: an undecorated method whose name marks
    it the class's own business (one leading underscore), with a receiver."""
    name = fn.name.value
    return not fn.decorators and name.startswith("_") and not name.startswith("__") and bool(fn.params.params)


def _called_on_self(ctx: ModuleContext, cls: cst.ClassDef, fn: cst.FunctionDef) -> list[cst.Call] | str:
    """Every read of the method's name in the module is ``self.<name>(...)`` in a method of its
    own class, and no other def of the module has the name (a subclass's would run instead)."""
    name = fn.name.value
    shown = f"{cls.name.value}.{name}"
    if any(d is not fn and d.name.value == name for d in ctx.nodes_of(cst.FunctionDef)):
        return f"another def of the module is named `{name}`"
    calls: list[cst.Call] = []
    for attribute in ctx.attributes_named(name):
        method = ctx.enclosing_function(attribute)
        receiver = method.params.params[0].name.value if isinstance(method, cst.FunctionDef) and method.params.params else None
        call = ctx.parent(attribute)
        if not (
            isinstance(attribute.value, cst.Name)
            and attribute.value.value == receiver
            and ctx.enclosing_class(attribute) is cls
            and isinstance(call, cst.Call)
            and call.func is attribute
        ):
            return f"`{shown}` is reached otherwise than as a call on `self` (line {ctx.span(attribute).start.line})"
        calls.append(call)
    return _not_imported(ctx, cls) or calls


def _called_by_name(ctx: ModuleContext, fn: cst.FunctionDef) -> list[cst.Call] | str:
    name = fn.name.value
    calls: list[cst.Call] = []
    for read in reads(ctx, fn.name):
        call = ctx.parent(read)
        if not (isinstance(call, cst.Call) and call.func is read) or single_binding(ctx, read) is not fn:  # type: ignore[arg-type]
            return f"`{name}` is read as a value (line {ctx.span(read).start.line}), not only called"
        calls.append(call)
    return _not_imported(ctx, fn) or calls


def _called_on_class(ctx: ModuleContext, cls: cst.ClassDef, fn: cst.FunctionDef) -> list[cst.Call] | str:
    shown = f"{cls.name.value}.{fn.name.value}"
    calls: list[cst.Call] = []
    for read in reads(ctx, cls.name):
        attribute = ctx.parent(read)
        if not (isinstance(attribute, cst.Attribute) and attribute.value is read) or single_binding(ctx, read) is not cls:  # type: ignore[arg-type]
            return f"`{cls.name.value}` is used otherwise than as `{cls.name.value}.<name>` (line {ctx.span(read).start.line})"
        if attribute.attr.value != fn.name.value:
            continue
        call = ctx.parent(attribute)
        if not (isinstance(call, cst.Call) and call.func is attribute):
            return f"`{shown}` is read as a value (line {ctx.span(read).start.line}), not only called"
        calls.append(call)
    for attribute in ctx.attributes_named(fn.name.value):
        if isinstance(attribute.value, cst.Name) and attribute.value.value in ("self", "cls") and ctx.enclosing_class(attribute) is cls:
            return f"`{shown}` is also reached through `{attribute.value.value}` (line {ctx.span(attribute).start.line})"
    return _not_imported(ctx, cls) or calls


def _not_imported(ctx: ModuleContext, node: cst.FunctionDef | cst.ClassDef) -> str | None:
    """Another module of the project using `node`, one of this module's top-level names."""
    name = node.name.value
    if ctx.repo is None or ctx.parent(node) is not ctx.module:
        return None  # a function's own def: no other module can reach it
    from jaxfix.transforms.semantics.importers import module_using  # importers reads whole modules: only with a project

    other = module_using(ctx, name)
    return f"`{name}` is used by `{other}` too" if other is not None else None
