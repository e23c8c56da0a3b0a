"""Recognise every spelling of jax.jit and what it makes static.

Spellings (DESIGN.md 1): ``@jax.jit``, ``@jit``, ``@jax.jit(static_argnums=...)``,
``@partial(jit, static_argnums=...)`` (functools.partial under any import or
alias), ``g = jax.jit(f, static_argnames=...)``, ``g = partial(jax.jit, ...)(f)``,
``jax.jit(f, ...)(args)`` inline. static_argnums as int, tuple, list or set,
negative too; static_argnames as str or any sequence; either through a name
bound once to a literal.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.semantics.class_hashing import static_method
from jaxfix.transforms.semantics.constants import NOT_CONSTANT, constant_value, single_binding
from jaxfix.transforms.semantics.jit_signature import BindError, Signature, StaticSpec, bind_call
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.vocabulary import DIFFERENTIATION, JIT, NEUTRAL_DECORATORS, PARTIAL, STATIC_KEYWORDS


@dataclass(frozen=True)
class JitWrapper:
    """A jit (or jit factory) expression: what it makes static, and where that is written.

    spec is None when static arguments are given but cannot be read
    (``static_argnums=compute()``, ``**options``).
    """

    spec: StaticSpec | None
    #: The call whose keywords hold static_argnums/static_argnames, None for bare ``jit``.
    call: cst.Call | None


def _spec_from_args(ctx: ModuleContext, args: tuple[cst.Arg, ...]) -> StaticSpec | None:
    argnums: tuple[int, ...] | None = None
    argnames: tuple[str, ...] | None = None
    for arg in args:
        if arg.star:
            return None
        if arg.keyword is None or arg.keyword.value not in STATIC_KEYWORDS:
            continue
        value = constant_value(ctx, arg.value)
        if value is NOT_CONSTANT:
            return None
        if arg.keyword.value == "static_argnums":
            if value is None:
                continue
            items = value if isinstance(value, tuple) else (value,)
            if not all(isinstance(i, int) and not isinstance(i, bool) for i in items):
                return None
            argnums = tuple(items)
        else:
            if value is None:
                continue
            items = value if isinstance(value, tuple) else (value,)
            if not all(isinstance(s, str) for s in items):
                return None
            argnames = tuple(items)
    return StaticSpec(argnums, argnames)


def read_jit_wrapper(ctx: ModuleContext, expr: cst.BaseExpression) -> JitWrapper | None:
    """`expr` is something that, applied to a function, jits it; else None."""
    if ctx.names.is_api(expr, JIT):
        return JitWrapper(StaticSpec(), None)
    if not isinstance(expr, cst.Call):
        return None
    if ctx.names.is_api(expr.func, JIT):
        if any(a.keyword is None and not a.star for a in expr.args):
            return None  # jax.jit(f, ...) is an application, not a wrapper
        return JitWrapper(_spec_from_args(ctx, expr.args), expr)
    if ctx.names.is_api(expr.func, PARTIAL) and expr.args:
        first, rest = expr.args[0], expr.args[1:]
        if first.keyword is None and not first.star and ctx.names.is_api(first.value, JIT):
            if any(a.keyword is None for a in rest):
                return None  # positional arguments bound by partial: not a plain wrapper
            return JitWrapper(_spec_from_args(ctx, rest), expr)
    return None


def read_jit_application(ctx: ModuleContext, call: cst.Call) -> tuple[JitWrapper, cst.BaseExpression] | None:
    """`call` applies jit to a function: returns (wrapper, the function expression)."""
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if ctx.names.is_api(call.func, JIT) and positional and call.args[0] is positional[0]:
        return JitWrapper(_spec_from_args(ctx, call.args[1:]), call), positional[0].value
    wrapper = read_jit_wrapper(ctx, call.func)
    if wrapper is not None and len(call.args) == 1 and len(positional) == 1:
        return wrapper, positional[0].value
    return _factory_application(ctx, call)


def _factory_application(ctx: ModuleContext, call: cst.Call) -> tuple[JitWrapper, cst.BaseExpression] | None:
    """``_estimator_variant(jax.jit, score_function_jacobians)`` (optax's gradient estimators) or
    ``make_jitted(step)``: a def of this module, undecorated, whose one statement returns
    ``jit(p, static_argnums=...)``, `p` one of its parameters and the jit either jax's own or a
    parameter this call gives jax's jit. Its static options are the ones written in that return,
    where a fix edits them: so the def must serve this call alone (its name read once here, and
    imported by no other module of the project)."""
    if any(a.star for a in call.args):
        return None
    if isinstance(call.func, cst.Name):
        factory = single_binding(ctx, call.func)
        if isinstance(factory, cst.FunctionDef) and factory.decorators:
            return None
    elif isinstance(call.func, cst.Attribute):
        factory = static_method(ctx, call.func)  # `Model._variant(jax.jit, Model.step)`
    else:
        return None
    if not isinstance(factory, cst.FunctionDef) or not _read_once(ctx, factory):
        return None
    body = factory.body.body if isinstance(factory.body, cst.IndentedBlock) else ()
    statement = body[0] if len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) else None
    returned = statement.body[0] if statement is not None and len(statement.body) == 1 else None
    applied = returned.value if isinstance(returned, cst.Return) else None
    if not isinstance(applied, cst.Call) or not applied.args:
        return None
    first, options = applied.args[0], applied.args[1:]
    if first.keyword is not None or first.star or any(a.keyword is None or a.star for a in options):
        return None
    signature = Signature.from_cst(factory.params)
    given = _given(call, signature)
    wrapped = first.value
    if given is None or not isinstance(wrapped, cst.Name) or wrapped.value not in given:
        return None
    jit: cst.BaseExpression | None = applied.func
    if isinstance(jit, cst.Name) and jit.value in given:
        jit = given[jit.value]  # `variant(estimator, ...)` with `variant` given `jax.jit` here
    elif isinstance(jit, cst.Name) and signature.param(jit.value) is not None:
        return None  # a parameter this call leaves to its default
    if jit is None or not ctx.names.is_api(jit, JIT):
        return None
    return JitWrapper(_spec_from_args(ctx, options), applied), given[wrapped.value]


def _given(call: cst.Call, signature: Signature) -> dict[str, cst.BaseExpression] | None:
    """What `call` passes each parameter it fills, bound as Python binds them (`bind_call`); None
    where Python would raise."""
    positional = [i for i, a in enumerate(call.args) if a.keyword is None]
    keywords = {a.keyword.value: i for i, a in enumerate(call.args) if a.keyword is not None}
    try:
        bound = bind_call(signature, StaticSpec(), positional, keywords)
    except BindError:
        return None
    return {name: call.args[b.source].value for name, b in bound.items() if isinstance(b.source, int)}  # type: ignore[index]


def _read_once(ctx: ModuleContext, fn: cst.FunctionDef) -> bool:
    """The def's name is read once in this module (a static method's, as an attribute of any
    object), and no other module of the project imports it (or its class)."""
    owner = ctx.parent(ctx.parent(fn))
    if isinstance(owner, cst.ClassDef):
        if len(ctx.attributes_named(fn.name.value)) != 1:
            return False
        exported = owner.name.value
    else:
        scope = ctx.scope(fn)
        assignments = scope.assignments[fn.name.value] if scope is not None else ()
        if len(assignments) != 1 or sum(len(a.references) for a in assignments) != 1:
            return False
        exported = fn.name.value
    return ctx.repo is None or ctx.ref is None or not ctx.repo.modules_importing(exported, ctx.ref)


class MethodKind(enum.Enum):
    FUNCTION = "function"  # module-level or nested function, or a staticmethod
    INSTANCE = "instance"  # the first parameter is bound when accessed on an instance
    CLASS = "class"


@dataclass(frozen=True)
class FunctionInfo:
    """How a def is called: signature, method kind, and the jit around it.

    opaque is True when some other decorator may change the calling convention
    or wrap the jitted function; then nothing about its calls is assumed.
    """

    node: FunctionNode
    name: str
    signature: Signature
    method: MethodKind
    jit: JitWrapper | None
    opaque: bool
    #: Where the jit is: the decorator, or the call of an assignment ``g = jit(f)``.
    jit_node: cst.CSTNode | None = None
    #: For a function of another module of the project (`external`): that module.
    #: Its node is then None: only its summary is known here.
    defined_in: object | None = None
    #: For such a function jitted by assignment (``g = jax.jit(f)``): the def's own name.
    node_name: str | None = None


def function_info(ctx: ModuleContext, node: FunctionNode) -> FunctionInfo:
    if isinstance(node, cst.Lambda):
        return FunctionInfo(node, "<lambda>", Signature.from_cst(node.params), MethodKind.FUNCTION, None, False)
    in_class = isinstance(ctx.parent(ctx.parent(node)), cst.ClassDef)
    method = MethodKind.INSTANCE if in_class else MethodKind.FUNCTION
    jit: JitWrapper | None = None
    jit_node: cst.CSTNode | None = None
    opaque = False
    differentiated: list[int] = []
    # Decorators apply bottom-up: anything below the jit changes what jit wraps,
    # anything above (but staticmethod/classmethod) wraps the jitted function.
    for decorator in reversed(node.decorators):
        expr = decorator.decorator
        qualified = ctx.names.qualified_name(expr)
        if qualified in NEUTRAL_DECORATORS and in_class:
            if qualified == "builtins.staticmethod":
                method = MethodKind.FUNCTION
            elif qualified == "builtins.classmethod":
                method = MethodKind.CLASS
            continue  # flax's compact and nowrap leave an instance method one
        wrapper = read_jit_wrapper(ctx, expr)
        if wrapper is not None and jit is None and not opaque:
            jit, jit_node = wrapper, decorator
            continue
        argnums = _differentiated_positions(ctx, expr) if jit is None else None
        if argnums is not None:
            differentiated.extend(argnums)
            continue
        opaque = True
    signature = Signature.from_cst(node.params)
    if differentiated and not opaque:
        opaque = jit is None or not _static_apart(jit, signature, differentiated)
    return FunctionInfo(node, node.name.value, signature, method, jit, opaque, jit_node)


def _differentiated_positions(ctx: ModuleContext, expr: cst.BaseExpression) -> tuple[int, ...] | None:
    """``@jax.grad`` or ``@partial(jax.value_and_grad, argnums=1, has_aux=True)`` below a jit:
    the positions it differentiates. The function it returns takes the arguments the def takes,
    and hands every other one on as it is (vocabulary.DIFFERENTIATION), so the jit's static
    slots bind as on the def itself. None for anything else."""
    if any(ctx.names.is_api(expr, name) for name in DIFFERENTIATION):
        return (0,)
    if not (isinstance(expr, cst.Call) and ctx.names.is_api(expr.func, PARTIAL) and expr.args):
        return None
    first, options = expr.args[0], expr.args[1:]
    if first.keyword is not None or not any(ctx.names.is_api(first.value, name) for name in DIFFERENTIATION):
        return None
    argnums: tuple[int, ...] = (0,)
    for option in options:
        if option.keyword is None or option.keyword.value not in ("argnums", "has_aux"):
            return None
        value = constant_value(ctx, option.value)
        if option.keyword.value == "has_aux":
            if not isinstance(value, bool):
                return None
            continue
        items = value if isinstance(value, tuple) else (value,)
        if not items or not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in items):
            return None
        argnums = items  # type: ignore[assignment]
    return argnums


def _static_apart(jit: JitWrapper, signature: Signature, differentiated: list[int]) -> bool:
    """No static slot of the jit is one the differentiation beneath it traces."""
    if jit.spec is None:
        return False
    static, _ = jit.spec.resolved(signature)
    return not set(static) & set(differentiated) and all(i >= 0 for i in static)


@dataclass(frozen=True)
class Target:
    """The def a callable expression calls, and the jit in between (None: not jitted)."""

    function: FunctionInfo
    jit: JitWrapper | None
    #: Where the jit is written: a decorator, or the call ``jax.jit(f, ...)``.
    jit_node: cst.CSTNode | None
    #: The call passes the instance (or class) as the first positional argument.
    implicit_self: bool
