"""Can ``namedtuple("Namespace", vars(opts))(**vars(opts))`` be built, and does it hash?

JAX201 hands a jitted function a namedtuple of an ``argparse.Namespace``'s
fields instead of the namespace (docs/jax201-behaviour.md N2). That is proven
only when the fields are known where the namespace is built:

* ``parser.parse_args(...)`` of an ``argparse.ArgumentParser`` this module
  builds, whose every other use is an ``add_argument`` statement with literal
  options: each option stores one hashable value (no ``nargs`` but ``"?"``,
  no ``append``/``extend`` action, a ``type`` of ``int``/``float``/``str``/``bool``,
  plain literal ``default`` and ``const``);
* ``Namespace(name=value, ...)`` whose every value is a plain literal.

Every field name must also be one namedtuple accepts: an identifier, not a
keyword, not starting with ``_``. (No use may assign a field: the rule checks
every use before it asks.) Anything else leaves the values unknown: the
rewrite is then only offered as unsafe (a list inside would still not hash).
"""

from __future__ import annotations

import keyword

import libcst as cst

from jaxfix.transforms.semantics.constants import NOT_CONSTANT, assigned_value, constant_value, single_binding
from jaxfix.transforms.semantics.container_origin import Origin
from jaxfix.transforms.semantics.hashability import Kind, ValueClassifier
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.reads import reads

#: add_argument actions that store one value (or none).
_SINGLE_VALUE_ACTIONS = frozenset({"store", "store_true", "store_false", "store_const", "count", "help", "version"})
#: add_argument options that cannot change what is stored, or are checked on their own below.
_HARMLESS_OPTIONS = frozenset({"help", "metavar", "required", "choices", "dest", "default", "const", "type", "action", "nargs"})
_HASHABLE_TYPES = frozenset({"builtins.int", "builtins.float", "builtins.str", "builtins.bool"})


def unproven_fields(ctx: ModuleContext, values: ValueClassifier, origin: Origin) -> str | None:
    """None when every field of the namespace is known, named validly and hashable; else why not."""
    built = origin.node
    if not isinstance(built, cst.Call):
        return "its fields are not known here"
    func = built.func
    if isinstance(func, cst.Attribute) and func.attr.value == "parse_args":
        return _parser_fields(ctx, values, func.value)  # type: ignore[arg-type]
    return _keyword_fields(values, built)


def _keyword_fields(values: ValueClassifier, call: cst.Call) -> str | None:
    for arg in call.args:
        if arg.star or arg.keyword is None:
            return f"`{_code(call)}` takes fields jaxfix cannot list"
        bad = _bad_name(arg.keyword.value)
        if bad is not None:
            return bad
        if values.classify(arg.value).kind is not Kind.PLAIN:
            return f"field `{arg.keyword.value}` may not hash"
    return None


def _parser_fields(ctx: ModuleContext, values: ValueClassifier, parser: cst.Name) -> str | None:
    binding = single_binding(ctx, parser)
    built = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
    if not isinstance(built, cst.Call) or any(a.keyword is not None and a.keyword.value == "parents" for a in built.args):
        return f"`{parser.value}` is not a parser built here with its own options"
    for use in reads(ctx, binding):  # type: ignore[arg-type]
        attribute = ctx.parent(use)
        call = ctx.parent(attribute) if isinstance(attribute, cst.Attribute) else None
        if not (isinstance(call, cst.Call) and call.func is attribute):
            return f"`{parser.value}` is used where jaxfix cannot list its options"
        if attribute.attr.value == "parse_args":  # type: ignore[union-attr]
            continue
        if attribute.attr.value != "add_argument":  # type: ignore[union-attr]
            return f"`{_code(call)}` adds options jaxfix cannot list"
        why = _argument_field(values, call)
        if why is not None:
            return why
    return None


def _argument_field(values: ValueClassifier, call: cst.Call) -> str | None:
    """One ``add_argument``: its field's name, and that what it stores hashes."""
    flags: list[str] = []
    options: dict[str, cst.BaseExpression] = {}
    for arg in call.args:
        if arg.star:
            return f"`{_code(call)}` takes options jaxfix cannot list"
        if arg.keyword is None:
            flag = constant_value(values.ctx, arg.value)
            if not isinstance(flag, str):
                return f"`{_code(call)}` has a flag that is not a literal"
            flags.append(flag)
        else:
            options[arg.keyword.value] = arg.value
    unknown = next((o for o in options if o not in _HARMLESS_OPTIONS), None)
    if unknown is not None or not flags:
        return f"`{_code(call)}` may store a value that does not hash"
    literal = {k: constant_value(values.ctx, v) for k, v in options.items() if k in ("dest", "action", "nargs")}
    if any(v is NOT_CONSTANT for v in literal.values()):
        return f"`{_code(call)}` has an option that is not a literal"
    if literal.get("action", "store") not in _SINGLE_VALUE_ACTIONS or literal.get("nargs", "?") != "?":
        return f"`{_code(call)}` stores a list, which does not hash"
    kind = options.get("type")
    if kind is not None and values.ctx.names.qualified_name(kind) not in _HASHABLE_TYPES:
        return f"`{_code(call)}` converts with `{_code(kind)}`, which may not give a hashable value"
    for name in ("default", "const"):
        if name in options and values.classify(options[name]).kind is not Kind.PLAIN:
            return f"`{_code(call)}` has a `{name}` that may not hash"
    return _bad_name(_dest(flags, literal.get("dest")))


def _dest(flags: list[str], dest: object) -> str:
    """The attribute argparse stores the option under."""
    if isinstance(dest, str):
        return dest
    if not flags[0].startswith("-"):
        return flags[0]
    long = next((f for f in flags if f.startswith("--")), flags[0])
    return long.lstrip("-").replace("-", "_")


def _bad_name(name: str) -> str | None:
    if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_"):
        return f"its field `{name}` cannot be a namedtuple field"
    return None


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node).strip()
