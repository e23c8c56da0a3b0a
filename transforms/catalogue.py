"""Every rule's card: its code, name, fix class and summary, and the words its pre-filter needs.

The rule classes (`transforms.rules`) import libcst and the whole semantic
model: a quarter of a second before the first file is read. A run whose files
the byte pre-filter drops (most files of a repository, most commits a
pre-commit hook sees) needs only the words, and ``jaxfix rules`` only the
cards; both read them here, where nothing but the standard library is
imported. ``tests/test_catalogue.py`` holds every card equal to its rule
class (add a card beside each new rule; the test prints the line to add).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from jaxfix.transforms.core.options import Options
from jaxfix.transforms.core.rule import STATIC_JITTED, Haystack, required_words_match


@dataclass(frozen=True)
class RuleCard:
    code: str
    name: str
    #: "safe", "unsafe" or "report": `Rule.fix_label()`.
    fix: str
    summary: str
    #: `Rule.required`: every group needs one of its substrings.
    required: tuple[tuple[str, ...], ...]

    def fix_label(self) -> str:
        return self.fix

    def may_match(self, text: str | bytes | Haystack, imports_static_jitted: bool | Callable[[], bool] = False) -> bool:
        """`Rule.may_match`, without importing the rule."""
        return required_words_match(self.required, text, imports_static_jitted)


_BRANCH_WORDS = (("static_arg", STATIC_JITTED), ("cond", "switch", "fori_loop", "while_loop", "scan"))
_TRACING_WORDS = (
    "jit", "vmap", "pmap", "grad", "jvp", "vjp", "linearize", "checkpoint", "remat", "custom_", "named_call",
    "shard_map", "eval_shape", "make_jaxpr", "scan", "fori_loop", "while_loop", "cond(", "cond,", "cond\n",
    "switch", "lax.map", "import map", ", map",
)  # fmt: skip
_JNP_OPERATIONS = (
    ".minimum(", ".maximum(", ".abs(", ".absolute(", ".add(", ".subtract(", ".multiply(", ".floor_divide(",
    ".remainder(", ".mod(", ".divide(", ".true_divide(", "from jax.numpy import", "arange(", "array(", "astype(int",
    "astype(jnp.int", "astype(np.int", "astype(numpy.int", "astype(jax.numpy.int", "astype('int", 'astype("int',
)  # fmt: skip
_STAGING_WORDS = (
    "jit", "make_jaxpr", "pmap", "eval_shape", "checkpoint", "remat", "scan", "fori_loop", "while_loop", "cond",
    "switch", "map", "shard_map",
)  # fmt: skip

#: Every rule, in code order.
CARDS: tuple[RuleCard, ...] = (
    RuleCard(
        "JAX001",
        "unused-suppression",
        "safe",
        "a suppression comment names a code no rule has, or silences nothing",
        (("jaxfix", "noqa", "NOQA", "NoQA"), ("jaxfix", "JAX")),
    ),
    RuleCard(
        "JAX101",
        "static-operand-to-branch",
        "safe",
        "a static parameter of a jitted branch or loop body receives a traced operand",
        (_BRANCH_WORDS[0], (*_BRANCH_WORDS[1], "vmap")),
    ),
    RuleCard(
        "JAX102",
        "branch-jit-into-enclosing-jit",
        "safe",
        "a branch's static value is a traced parameter of the enclosing jitted function",
        _BRANCH_WORDS,
    ),
    RuleCard(
        "JAX103",
        "static-operand-to-plain-branch",
        "safe",
        "a plain cond/switch branch needs as a Python value an operand the primitive traces",
        (("cond", "switch"),),
    ),
    RuleCard(
        "JAX104",
        "recursion-through-cond",
        "safe",
        "a function recurses through a lax.cond/lax.switch branch, which is traced whatever the predicate",
        (("cond", "switch"),),
    ),
    RuleCard(
        "JAX201",
        "unhashable-static-arg",
        "safe",
        "a dict, list, set or namespace reaches a static parameter of a jitted function",
        (("static_argnums", "static_argnames", "static_broadcasted_argnums", STATIC_JITTED),),
    ),
    RuleCard(
        "JAX202",
        "array-in-static-field",
        "safe",
        "a static field of a pytree dataclass (register_dataclass, flax.struct, equinox) is given an array",
        (("register_dataclass", "struct", "PyTreeNode", "equinox", "register_pytree_node"), ("static", "pytree_node", "meta_fields")),
    ),
    RuleCard(
        "JAX203",
        "unhashable-callable",
        "safe",
        "a callable that cannot hash (an equinox module holding an array, an unhashable dataclass) is given to scan/cond/jit: call it from a lambda",
        (("equinox", "class "), ("scan", "fori_loop", "while_loop", "cond", "switch", "jit", "checkpoint", "remat")),
    ),
    RuleCard(
        "JAX204",
        "data-in-static-nnx-attribute",
        "unsafe",
        "an nnx Module keeps modules in a plain list, tuple or dict attribute (static since Flax 0.12): mark it nnx.data",
        (("nnx",), ("Module", "Pytree", "Object")),
    ),
    RuleCard(
        "JAX301",
        "traced-loop-length",
        "safe",
        "a scan length, range() count or arange size is computed from a traced value",
        (("scan", "range"), ("jax",), _TRACING_WORDS),
    ),
    RuleCard(
        "JAX302",
        "param-needs-static",
        "safe",
        "a parameter jit traces is needed as a Python value (a size, a condition, a function): make it static",
        (("jit", "checkpoint", "remat"),),
    ),
    RuleCard(
        "JAX304",
        "traced-value-needs-concrete",
        "safe",
        "a value JAX computes while tracing is used where Python needs a concrete value",
        (("jax",), ("jit", "cond", "scan", "fori_loop", "while_loop", "switch", "pmap", "checkpoint", "remat",
                    "make_jaxpr", "eval_shape", "map", "param", "grad", "jacfwd", "jacrev", "jacobian", "hessian", "jvp", "vjp")),
    ),
    RuleCard(
        "JAX305",
        "python-if-on-traced-value",
        "safe",
        "a Python if tests a value jit, vmap, pmap or checkpoint traces: select with jnp.where",
        (("if", "assert"), ("jit", "vmap", "pmap", "checkpoint", "remat")),
    ),
    RuleCard(
        "JAX306",
        "pytree-field-needs-static",
        "safe",
        "a traced field of a pytree class (register_dataclass, flax.struct, equinox, its own tree_flatten) is read where Python needs its value",
        (("register_dataclass", "struct", "PyTreeNode", "equinox", "register_pytree_node"),),
    ),
    RuleCard(
        "JAX307",
        "chained-comparison-on-traced-value",
        "safe",
        "a chained comparison `lo < x < hi` of a traced value takes a Python bool: compare element-wise with `&`",
        (("jax",),),
    ),
    RuleCard(
        "JAX308",
        "traced-boolean-mask",
        "safe",
        "a boolean mask computed from a tracer is used as an index (size depends on data): select with jnp.where",
        (("jax",), ("[",)),
    ),
    RuleCard(
        "JAX309",
        "boolean-operator-on-traced-value",
        "safe",
        "`not`/`and`/`or` of a traced boolean takes a Python bool: use jnp.logical_not/logical_and/logical_or",
        (("jax",), ("not", "and", "or")),
    ),
    RuleCard(
        "JAX310",
        "numpy-on-traced-value",
        "safe",
        "NumPy (or a Python list) is handed a tracer: use jax.numpy's twin, or index a jax array",
        (("jax",), ("numpy", "[")),
    ),
    RuleCard(
        "JAX401",
        "outer-transform-static",
        "safe",
        "an outer transformation traces the static argument of a jitted function",
        (("static_arg",), ("make_jaxpr", "pmap", "checkpoint", "remat", "jit", "Partial", "vmap", "grad", "jacfwd", "jacrev", "jacobian", "hessian")),
    ),
    RuleCard(
        "JAX402",
        "static-arithmetic",
        "safe",
        "jnp arithmetic on static Python ints is traced under jit where a concrete int is needed",
        (("numpy",), _JNP_OPERATIONS, _STAGING_WORDS),
    ),
    RuleCard(
        "JAX403",
        "array-static-arg",
        "safe",
        "an array-valued parameter is listed in static_argnums/static_argnames",
        (("static_arg", "static_broadcasted"), ("jnp", "numpy", "random", "Array", "ndarray", "example_libraries")),
    ),
    RuleCard(
        "JAX404",
        "traced-to-static-param",
        "safe",
        "a jitted helper's static parameter receives a value that is traced at the call",
        (("static_arg",),),
    ),
    RuleCard(
        "JAX405",
        "transform-traces-python-value",
        "safe",
        "checkpoint, vmap, pmap, make_jaxpr or eval_shape traces a Python value the function needs as one",
        (("checkpoint", "remat", "make_jaxpr", "pmap", "vmap", "eval_shape", "scan", "fori_loop", "while_loop", "cond", "switch"),),
    ),
    RuleCard(
        "JAX406",
        "unknown-static-argument",
        "safe",
        "a jit names static arguments its function does not take (jit raises): drop them",
        (("jit",), ("static_argnums", "static_argnames")),
    ),
    RuleCard(
        "JAX407",
        "traced-nondiff-argument",
        "safe",
        "a custom_vjp's nondiff_argnums slot is handed a tracer (a custom_jvp's, differentiated): make it an ordinary argument",
        (("nondiff_argnums",), ("custom_vjp", "custom_jvp")),
    ),
    RuleCard(
        "JAX408",
        "custom-vjp-argument-needs-python-value",
        "safe",
        "a custom_vjp (or custom_jvp) needs an ordinary argument as a Python value, which jit hands it as a tracer: list it in nondiff_argnums",
        (("custom_vjp", "custom_jvp"),),
    ),
)

#: The cards by code.
BY_CODE: dict[str, RuleCard] = {card.code: card for card in CARDS}


def _matches(code: str, prefixes: frozenset[str]) -> bool:
    return any(code.startswith(p) for p in prefixes)


def selected(options: Options) -> list[RuleCard]:
    """The cards of the rules `options` selects (`transforms.selected_rules`, by card)."""
    cards = list(CARDS)
    if options.select is not None:
        cards = [c for c in cards if _matches(c.code, options.select)]
    return [c for c in cards if not _matches(c.code, options.ignore)]


def may_match(content: str | bytes | Haystack, options: Options, imports_static_jitted: bool | Callable[[], bool]) -> bool:
    """Whether any selected rule's pre-filter lets this text through."""
    haystack = content if isinstance(content, Haystack) else Haystack(content)
    return any(card.may_match(haystack, imports_static_jitted) for card in selected(options))
