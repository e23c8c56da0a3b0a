"""JAX201 (unhashable-static-arg): the pieces, and the rewritten code run with real JAX."""

from __future__ import annotations

import textwrap

import pytest

from jaxfix.transforms import RULES, Applicability, Options, check_source, fix_source

HEAD = """\
from functools import partial

import jax
import jax.numpy as jnp

"""

JITTED = """
@partial(jax.jit, static_argnames=("config",))
def f(x, config):
{body}
"""


def module(setup: str = "", body: str = "    return x", call: str = "f(jnp.ones(2), CONFIG)", head: str = HEAD) -> str:
    """A module: imports, `setup`, a jitted f with a static `config` and the given body, then `call`."""
    return (
        head + textwrap.dedent(setup) + JITTED.format(body=textwrap.indent(textwrap.dedent(body), "    ")) + call + "\n"
    )


#: A body that needs the config as a Python value, so that making it traced is no way out.
NEEDS_CONCRETE = "return x if config else -x"


def findings(src: str, **options):
    return [f for f in check_source(src, Options(**options)) if f.code == "JAX201"]


def fixed(src: str, **options) -> str:
    return fix_source(src, Options(**options)).text


def line_of(text: str, prefix: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(prefix))


# -- the cache ---------------------------------------------------------------------


def test_equal_but_distinct_frozen_config_does_not_trace_again() -> None:
    """The rewritten config hits jit's cache when built again: that is the point of a static argument."""
    src = module(
        'TRACES = []\nCONFIG = {"scale": 2.0, "opt": {"lr": 0.5}, "layers": [2, 3], "tags": {"a"}}\n',
        'TRACES.append(1)\nreturn x * config["scale"] * config["opt"]["lr"] + len(config["layers"])',
        "RESULT = f(jnp.ones(2), CONFIG)",
    )
    with pytest.raises(ValueError, match="Non-hashable static arguments"):
        exec(compile(src, "before", "exec"), {})
    after = fixed(src)
    namespace: dict = {}
    exec(compile(after, "after", "exec"), namespace)
    assert namespace["TRACES"] == [1]
    literal = line_of(after, "CONFIG = ").removeprefix("CONFIG = ")
    again = eval(literal, namespace)  # the same frozen literal, evaluated again: a new object
    assert again is not namespace["CONFIG"] and again == namespace["CONFIG"]
    result = namespace["f"](namespace["jnp"].ones(2), again)
    assert namespace["TRACES"] == [1], "an equal frozen config traced again"
    assert namespace["f"]._cache_size() == 1
    assert result.tolist() == namespace["RESULT"].tolist() == [3.0, 3.0]


# -- freezing where it is built ---------------------------------------------------------


def thaw(value):
    """The frozen value turned back into dicts, lists and sets, to compare with the original."""
    if isinstance(value, frozenset):
        return {thaw(v) for v in value}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    if hasattr(value, "items"):
        return {k: thaw(v) for k, v in value.items()}
    return value


def unthawed(value):
    """The original with every tuple read as a list, as `thaw` reads them."""
    if isinstance(value, (tuple, list)):
        return [unthawed(v) for v in value]
    if isinstance(value, dict):
        return {k: unthawed(v) for k, v in value.items()}
    return value


LITERALS = [
    '{"a": 1}',
    "{}",
    "[]",
    "[1]",
    "[1, 2,]",
    '{"x", "y"}',
    '{"opt": {"lr": 0.1, "betas": (0.9, 0.99)}, "layers": [64, 64], "name": "m"}',
    '[{"a": [1, {"b": {2}}]}, ({"c": 3},)]',
    "(1, [2, [3]])",
    "dict(a=[1], b=dict(c={1}))",
    "list(([1], 2))",
    "set((1, 2))",
    '{1: "int key", None: [], ...: {"e": ()}}',
    "[([1])]",
    '({"a": [1]})',
    "{'l': set(), 'm': list(), 'n': dict()}",
]


@pytest.mark.parametrize("mapping", ["frozendict", "immutabledict"])
@pytest.mark.parametrize("literal", LITERALS)
def test_frozen_literal_is_hashable_and_holds_the_same_values(literal: str, mapping: str) -> None:
    src = module(f"CONFIG = {literal}\n")
    after = fixed(src, frozen_mapping=mapping)
    assert findings(after, frozen_mapping=mapping) == []
    namespace: dict = {}
    exec(compile(after.replace("f(jnp.ones(2), CONFIG)", ""), "after", "exec"), namespace)
    frozen = namespace["CONFIG"]
    hash(frozen)
    assert thaw(frozen) == unthawed(eval(literal))


def test_only_brackets_change_and_text_is_added_around() -> None:
    src = module('CONFIG = {  # c1\n    "a": [1,  # c2\n        2],\n    "b": ["x"],  # c3\n}\n')
    after = fixed(src)
    assert 'CONFIG = frozendict({  # c1\n    "a": (1,  # c2\n        2),\n    "b": ("x",),  # c3\n})\n' in after
    assert after.count("from frozendict import frozendict\n") == 1


def test_one_import_for_two_build_sites_and_the_dependency_is_named() -> None:
    src = module('A = {"k": 1}\nB = {"k": 2}\n', call="f(jnp.ones(2), A)\nf(jnp.ones(2), B)")
    first, _ = findings(src)
    assert first.fix is not None and first.fix.applicability is Applicability.SAFE
    assert any("`frozendict` package becomes a dependency" in n for n in first.notes)
    assert fixed(src).count("from frozendict import frozendict") == 1


def test_an_existing_import_is_reused_and_no_dependency_is_claimed() -> None:
    src = module('CONFIG = {"k": 1}\n', head=HEAD + "import frozendict as fd\n")
    (finding,) = findings(src)
    assert not any("dependency" in n for n in finding.notes)
    assert line_of(fixed(src), "CONFIG") == 'CONFIG = fd.frozendict({"k": 1})'


# -- which frozen mapping -------------------------------------------------------------------

CONFIG_LINE = 'CONFIG = {"opt": {"lr": 0.1}, "layers": [1, {"w": 2}], "tags": {"a"}}\n'


@pytest.mark.parametrize(
    ("head", "options", "expected"),
    [
        (
            "",
            {},
            'frozendict({"opt": frozendict({"lr": 0.1}), "layers": (1, frozendict({"w": 2})), "tags": frozenset({"a"})})',
        ),
        (
            "",
            {"target_version": (3, 15)},
            'frozendict({"opt": frozendict({"lr": 0.1}), "layers": (1, frozendict({"w": 2})), "tags": frozenset({"a"})})',
        ),
        (
            "import immutabledict\n",
            {},
            'immutabledict.immutabledict({"opt": immutabledict.immutabledict({"lr": 0.1}), "layers": (1, immutabledict.immutabledict({"w": 2})), "tags": frozenset({"a"})})',
        ),
        (
            "from flax.core import FrozenDict\n",
            {},
            'FrozenDict({"opt": {"lr": 0.1}, "layers": (1, FrozenDict({"w": 2})), "tags": frozenset({"a"})})',
        ),
        (
            "import flax\nX = flax.core.FrozenDict\n",
            {},
            'flax.core.FrozenDict({"opt": {"lr": 0.1}, "layers": (1, flax.core.FrozenDict({"w": 2})), "tags": frozenset({"a"})})',
        ),
        (
            "",
            {"frozen_mapping": "flax"},
            'FrozenDict({"opt": {"lr": 0.1}, "layers": (1, FrozenDict({"w": 2})), "tags": frozenset({"a"})})',
        ),
    ],
)
def test_the_mapping_follows_the_project_then_the_option(head: str, options: dict, expected: str) -> None:
    after = fixed(module(CONFIG_LINE, head=HEAD + head), **options)
    assert line_of(after, "CONFIG") == f"CONFIG = {expected}"
    assert findings(after, **options) == []


def test_the_builtin_needs_no_import_when_the_target_is_315() -> None:
    after = fixed(module(CONFIG_LINE), target_version=(3, 15))
    assert "import frozendict" not in after and "from frozendict" not in after


def test_ml_collections_wraps_the_outer_dict_only_and_refuses_what_it_cannot_hold() -> None:
    ok = module('CONFIG = {"a": {"b": [1, {2}]}, "c": dict(d=[3])}\n')
    assert line_of(fixed(ok, frozen_mapping="ml_collections"), "CONFIG") == (
        'CONFIG = FrozenConfigDict({"a": {"b": [1, {2}]}, "c": dict(d=[3])})'
    )
    call = module(call="f(jnp.ones(2), dict(a=1))")
    assert "FrozenConfigDict(dict(a=1))" in fixed(call, frozen_mapping="ml_collections")
    for literal, reason in [('{"a": [{"b": 1}]}', "dict inside a list"), ('{1: "a"}', "string keys")]:
        (finding,) = findings(module(f"CONFIG = {literal}\n", NEEDS_CONCRETE), frozen_mapping="ml_collections")
        assert finding.fix is None and reason in finding.message


def test_ml_collections_sorts_keys_so_ordered_reads_are_refused_unless_written_sorted() -> None:
    body = "for k in config:\n    x = x + len(k)\nreturn x"
    (finding,) = findings(module('CONFIG = {"b": 1, "a": 2}\n', body), frozen_mapping="ml_collections")
    assert finding.fix is None and "iterates its keys sorted" in finding.message
    (finding,) = findings(module('CONFIG = {"a": 1, "b": 2}\n', body), frozen_mapping="ml_collections")
    assert finding.fix is not None


def test_an_unknown_setting_or_a_taken_name_is_reported() -> None:
    (finding,) = findings(module('CONFIG = {"a": 1}\n', NEEDS_CONCRETE), frozen_mapping="nope")
    assert finding.fix is None and "nope" in finding.message
    (finding,) = findings(module('CONFIG = {"a": 1}\nfrozendict = None\n', NEEDS_CONCRETE))
    assert finding.fix is None and "name is taken" in finding.message


# -- uses that would notice the freeze ----------------------------------------------------------

USE_CONFIG = 'CONFIG = {"scale": 2.0, "layers": [1, 2], "name": "m"}\n'


@pytest.mark.parametrize(
    "body",
    [
        'return x * config["scale"] + len(config["layers"]) + len(config.get("name", ""))',
        'for width in config["layers"]:\n    x = x * width\nreturn x + sum(config["layers"])',
        "for k, v in config.items():\n    x = x + len(k)\nreturn x",
        'return x + jnp.array(config["layers"]).sum() + ("scale" in config)',
        'c = dict(config)\nc["extra"] = 1.0\nreturn x * c["extra"]',
        'layers = list(config["layers"])\nlayers.append(3)\nreturn x * len(layers)',
        'n = config["layers"]\nreturn x * n[0] if config else x',
        'return jnp.zeros(config["layers"]).reshape(config["layers"]).sum() + x',
    ],
)
def test_read_only_uses_are_fixed(body: str) -> None:
    (finding,) = findings(module(USE_CONFIG, body))
    assert finding.fix is not None and finding.fix.applicability is Applicability.SAFE, finding.message


@pytest.mark.parametrize(
    ("setup", "body", "said"),
    [
        ("", 'config["scale"] = 1.0\nreturn x', "changes an item"),
        ("", 'del config["scale"]\nreturn x', "changes an item"),
        ("", "config.update(scale=1.0)\nreturn x", "mutates it"),
        ("", 'config.pop("scale")\nreturn x', "mutates it"),
        ("", 'config["layers"] += [3]\nreturn x', "changes an item"),
        ("", "return x if isinstance(config, dict) else -x", "frozen type or repr"),
        ("", "print(config)\nreturn x", "frozen type or repr"),
        ("", 'return x if f"{config}" else x', "repr"),
        ("", 'return x if config["layers"] == [1, 2] else -x', "a tuple never equals a list"),
        ("", 'return x * len(config["layers"] + [3])', "give another type once frozen"),
        ("", "for k, v in config.items():\n    print(v)\nreturn x", "frozen type or repr"),
        ("import json\n", "json.dumps(config)\nreturn x", "cannot see into"),
        ("", "return config", "hands it back"),
        ("", "y = [config]\nreturn x", "stores it in another container"),
    ],
)
def test_uses_that_would_notice_are_refused_and_said(setup: str, body: str, said: str) -> None:
    (finding,) = findings(module(setup + USE_CONFIG, body))
    assert finding.fix is None
    assert said in finding.message
    assert "not frozen" in finding.message and any("jax.jit(partial(f, config=...))" in n for n in finding.notes)


@pytest.mark.parametrize(
    ("after_build", "said"),
    [
        ('CONFIG["scale"] = 3.0\n', "line 7, before the call"),
        ("CONFIG.clear()\n", "mutates it"),
        ('del CONFIG["name"]\n', "changes an item"),
        ('CONFIG["layers"].pop()\n', "mutates it"),
        ("CONFIG |= {}\n", "changes it in place"),
        ("import os\nif os.environ.get('FRESH'):\n    CONFIG = {}\n", "bound more than once"),
        ("import json\njson.dumps(CONFIG)\n", "cannot see into"),
        ("def keep(c):\n    c['seen'] = True\nkeep(CONFIG)\n", "it is handed to `keep(CONFIG)`"),
        ("print(CONFIG)\n", "frozen type or repr"),
        ("class Holder:\n    SHARED = CONFIG\n", "class attribute"),
        ("for c in [CONFIG]:\n    pass\n", "stores it in another container"),
    ],
)
def test_changes_and_other_users_of_the_name_are_refused(after_build: str, said: str) -> None:
    (finding,) = findings(module(USE_CONFIG + after_build, 'return x * config["scale"]'))
    assert finding.fix is None and said in finding.message, finding.message


def test_a_name_bound_again_in_straight_line_code_is_frozen_where_the_call_sees_it() -> None:
    """jax#4712: module code runs top to bottom, so the call sees the last binding before it (an int
    in it: a dict of floats alone would become traced, `test_a_dict_of_floats_becomes_traced`)."""
    src = module(USE_CONFIG + 'CONFIG = {"scale": 3.0, "repeat": 1}\n', 'return x * config["scale"]')
    (finding,) = findings(src)
    assert finding.fix is not None, finding.message
    assert 'CONFIG = frozendict({"scale": 3.0, "repeat": 1})' in fixed(src)
    assert 'CONFIG = {"scale": 2.0' in fixed(src)  # the binding no call sees stays as it is


def test_a_dict_of_floats_becomes_traced() -> None:
    """Floats are data (herculens' light profiles): traced, each new value no longer compiles again, so
    where both are proven, the static goes rather than the dict being frozen; the same dict read by
    a Python `if` stays static, frozen."""
    src = module('CONFIG = {"scale": 3.0}\n', 'return x * config["scale"]')
    (finding,) = findings(src)
    after = fixed(src)
    assert 'static_argnames' not in after and 'CONFIG = {"scale": 3.0}' in after, after
    assert "it holds only floats" in finding.message
    tested = module('CONFIG = {"scale": 3.0}\n', 'if config["scale"] > 1.0:\n    x = x * 2\nreturn x')
    assert 'CONFIG = frozendict({"scale": 3.0})' in fixed(tested)


def test_a_value_passed_to_a_traced_parameter_is_refused() -> None:
    setup = USE_CONFIG + "\n@jax.jit\ndef g(x, c):\n    return x\n\ng(jnp.ones(2), CONFIG)\n"
    (finding,) = findings(module(setup, 'return x * config["scale"]'))
    assert finding.fix is None and "traced parameter" in finding.message


# -- what the value is ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("setup", "said"),
    [
        ('W = jnp.ones(3)\nCONFIG = {"w": W}\n', "`W` is bound to `jnp.ones(3)`, an array"),
        ('CONFIG = {"w": jnp.zeros(2) + 1}\n', "computes with an array"),
        ('import numpy as np\nCONFIG = {"w": np.arange(3)}\n', "an array"),
        (
            'from jax.flatten_util import ravel_pytree\nflat, unravel = ravel_pytree({"a": jnp.ones(2)})\nCONFIG = {"v": flat}\n',
            "unpacked from",
        ),
    ],
)
def test_arrays_are_refused_with_the_options(setup: str, said: str) -> None:
    (finding,) = findings(module(setup, NEEDS_CONCRETE))
    assert finding.fix is None and said in finding.message
    assert any("regular (traced) argument" in n for n in finding.notes)
    assert any("each new wrapper traces and compiles again" in n for n in finding.notes)


def test_an_array_given_directly_is_jax403s_alone() -> None:
    """One bug, one finding (issue 17.5): JAX201 owns containers, JAX403 an array in a static slot."""
    src = module(call="f(jnp.ones(2), jnp.arange(3))")
    assert findings(src) == []
    (finding,) = check_source(src)
    assert finding.code == "JAX403" and "passes `jnp.arange(3)`" in finding.message


def test_functions_and_library_objects_are_hashable_leaves() -> None:
    setup = (
        "from jax.flatten_util import ravel_pytree\n"
        'flat, unravel = ravel_pytree({"a": jnp.ones(2)})\n'
        "def act(v):\n    return v\n"
        'CONFIG = {"fn": unravel, "act": act, "relu": jax.nn.relu, "l": lambda v: v, "p": partial(act), "dtype": jnp.float32, "e": ..., "n": None, "neg": -1}\n'
    )
    (finding,) = findings(module(setup))
    assert finding.fix is not None and finding.fix.applicability is Applicability.SAFE


def test_a_value_that_cannot_be_followed_makes_the_fix_unsafe() -> None:
    src = module('import os\nCONFIG = {"home": os.environ.get("HOME")}\n')
    (finding,) = findings(src)
    assert finding.fix is not None and finding.fix.applicability is Applicability.UNSAFE
    assert fixed(src) == src
    assert "frozendict({" in fixed(src, unsafe_fixes=True)


@pytest.mark.parametrize(
    "call",
    [
        "f(jnp.ones(2), (1, 2))",
        "f(jnp.ones(2), frozenset({1}))",
        "f(jnp.ones(2), 3)",
        "f(jnp.ones(2), PARAMS)",
        "f(jnp.ones(2), load())",
        "f(jnp.ones(2), {'a': 1})  # jaxfix: ignore[JAX201]",
    ],
)
def test_no_finding_without_evidence(call: str) -> None:
    setup = "from mylib import load, PARAMS\n"
    assert findings(module(setup, call=call)) == []


# -- built at run time ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("setup", "value", "wrapped"),
    [
        ("import json\n", "json.loads(TEXT)", "deepfreeze(json.loads(TEXT))"),
        ("import yaml\n", "yaml.safe_load(TEXT)", "deepfreeze(yaml.safe_load(TEXT))"),
        ("import tomllib\n", "tomllib.loads(TEXT)", "deepfreeze(tomllib.loads(TEXT))"),
        ("import argparse\n", "vars(ARGS)", "deepfreeze(vars(ARGS))"),
        ("def make():\n    return {'a': [1]}\n    return {}\n", "make()", "deepfreeze(make())"),
        ("", "sorted(NAMES)", "tuple(sorted(NAMES))"),
        ("", "[n for n in NAMES]", "tuple([n for n in NAMES])"),
    ],
)
def test_a_config_built_at_run_time_is_frozen_at_the_call_only_when_unsafe(
    setup: str, value: str, wrapped: str
) -> None:
    src = module(setup + "TEXT = ARGS = NAMES = None\n", call=f"f(jnp.ones(2), {value})")
    (finding,) = findings(src)
    assert finding.fix is not None and finding.fix.applicability is Applicability.UNSAFE
    assert fixed(src) == src
    after = fixed(src, unsafe_fixes=True)
    assert f"f(jnp.ones(2), {wrapped})" in after
    assert findings(after, unsafe_fixes=True) == []


def test_a_display_a_helper_returns_to_this_call_alone_is_frozen_where_it_is_built() -> None:
    """The helper's one use is the call: its display is built for it, as a module-level literal is."""
    src = module("def make():\n    return {'a': [1], 'fn': jnp.sin}\n", call="f(jnp.ones(2), make())")
    (finding,) = findings(src)
    assert finding.fix is not None and "where it is built" in finding.message
    assert "return frozendict({'a': (1,), 'fn': jnp.sin})" in fixed(src)


def test_deepfreeze_is_never_written_for_functions_or_unseen_contents() -> None:
    """deepfreeze turns functions into frozendicts (docs/frozen-forms.md)."""
    for setup, value in [
        ("def make():\n    return {'fn': jnp.sin}\n\n\nmake()\n", "make()"),
        ("BASE = None\n", "dict(BASE)"),
    ]:
        (finding,) = findings(module(setup, call=f"f(jnp.ones(2), {value})"))
        assert finding.fix is None and "deepfreeze" in finding.message


@pytest.mark.parametrize(
    ("mapping", "wrapped"),
    [
        ("flax", "freeze(json.loads(T))"),
        ("ml_collections", "FrozenConfigDict(json.loads(T))"),
        ("immutabledict", None),
        ("builtin", None),
    ],
)
def test_each_library_has_its_own_deep_freeze_or_none(mapping: str, wrapped: str | None) -> None:
    src = module("import json\nT = '{}'\n", call="f(jnp.ones(2), json.loads(T))")
    (finding,) = findings(src, frozen_mapping=mapping)
    if wrapped is None:
        assert finding.fix is None and "no deep freeze" in finding.message
    else:
        assert wrapped in fixed(src, frozen_mapping=mapping, unsafe_fixes=True)


def test_rebinding_is_reported() -> None:
    """Which binding the call sees depends on a condition (in straight-line code it is frozen where
    the call sees it: the test above)."""
    (finding,) = findings(module('import sys\nCONFIG = {"a": 1}\nif sys.argv[1:]:\n    CONFIG = {"a": 2}\n'))
    assert finding.fix is None and "bound more than once" in finding.message


# -- which calls -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("decorator", "call", "static"),
    [
        ("@partial(jax.jit, static_argnums=1)", "f(x, {'a': 1})", True),
        ("@partial(jax.jit, static_argnums=1)", "f(x, config={'a': 1})", True),  # argnames inferred
        ("@partial(jax.jit, static_argnums=1, static_argnames=())", "f(x, config={'a': 1})", False),
        ("@partial(jax.jit, static_argnums=-1)", "f(x, {'a': 1})", True),
        ("@partial(jax.jit, static_argnums=-1)", "f({'a': 1}, config=2)", True),  # -1 is x at this call
        ("@partial(jax.jit, static_argnames='config')", "f({'a': 1}, config=2)", False),
        ("@jax.jit", "f(x, {'a': 1})", False),
    ],
)
def test_static_follows_jits_own_rule(decorator: str, call: str, static: bool) -> None:
    src = HEAD + f"{decorator}\ndef f(x, config):\n    return x\n\nx = jnp.ones(2)\n{call}\n"
    assert bool(findings(src)) == static


def test_documentation_names_the_error_and_the_options() -> None:
    doc = RULES["JAX201"].documentation()
    assert "Non-hashable static arguments are not supported" in doc
    assert "jax.jit(partial(f, config=cfg))" in doc and "--unsafe-fixes" in doc


def test_pytree_apis_keep_the_container_type_so_they_are_not_read_only() -> None:
    """tree_map or device_put over a tuple returns a tuple where a list gave a list: not a plain read."""
    body = 'return jax.device_put(config["layers"])'
    (finding,) = findings(module(USE_CONFIG, body))
    assert finding.fix is None
    body = "return jax.tree_util.tree_map(lambda v: v, config)"
    (finding,) = findings(module(USE_CONFIG, body))
    assert finding.fix is None


@pytest.mark.parametrize(
    ("body", "fixed_at_call"),
    [
        ('return x * config["scale"] + len(config["layers"])', True),
        ('return nn_layer(x, config["layers"], **config)', True),
        ('for name, value in config.items():\n    x = x + len(name)\nreturn x', True),
        ('return x if config["layers"] == [1, 2] else -x', False),
        ('return x if isinstance(config.get("layers"), list) else -x', False),
        ('for value in config.values():\n    print(value)\nreturn x', False),
        ('config["layers"].append(3)\nreturn x', False),
        ('config["seen"] = True\nreturn x', False),
    ],
)
def test_a_deep_freeze_at_the_call_is_refused_where_the_body_would_notice(body: str, fixed_at_call: bool) -> None:
    """Deep freezing changes the parts too, which cannot be seen: the body's silent reads of them are refused."""
    src = module("import json\nfrom mylib import nn_layer\nT = '{}'\n", body, "f(jnp.ones(2), json.loads(T))")
    (finding,) = findings(src)
    assert (finding.fix is not None) == fixed_at_call, finding.message


# -- the last strategy: data jit traces stops being static (made_traced) -----------------------------

#: Freezing is refused (an array inside), so the traced strategy is the one tried.
WITH_ARRAY = 'W = jnp.ones(2)\n'


@pytest.mark.parametrize(
    ("setup", "body"),
    [
        ('CONFIG = {"lr": 0.1, "w": W}\n', 'return x * config["lr"] + config["w"]'),
        ('CONFIG = {"b": W, "a": [1, 2.5]}\n', 'return x * config["a"][1] + config["b"].sum()'),  # read key by key
        ('CONFIG = [W, 3]\n', "return x * config[1] + config[0]"),
    ],
)
def test_numbers_and_arrays_become_a_traced_argument(setup: str, body: str) -> None:
    src = module(WITH_ARRAY + setup, body)
    (finding,) = findings(src)
    assert finding.fix is not None and finding.fix.applicability is Applicability.SAFE, finding.message
    assert "becomes a regular (traced) argument" in finding.message
    assert "@jax.jit\ndef f(x, config):" in fixed(src)


def test_a_dict_written_with_sorted_keys_may_be_iterated() -> None:
    """Traced, a dict comes back with sorted keys; written sorted, its iteration order is kept (the
    loop itself is a read jaxfix does not follow, so the fix is unsafe, not refused)."""
    src = module(WITH_ARRAY + 'CONFIG = {"a": W, "b": 2}\n', "for k in config:\n    x = x + config[k]\nreturn x")
    (finding,) = findings(src)
    assert finding.fix is not None and finding.fix.applicability is Applicability.UNSAFE, finding.message


@pytest.mark.parametrize(
    ("setup", "body"),
    [
        ('CONFIG = {"act": "relu", "w": W}\n', 'return x + config["w"]'),  # a string does not trace
        ('CONFIG = {"w": W, "n": 2**40}\n', 'return x + config["w"]'),  # nor an int past int32
        ('CONFIG = {"b": W, "a": 2}\n', "for k in config:\n    x = x + config[k]\nreturn x"),  # keys come back sorted
        ('CONFIG = {"w": W, "n": 3}\n', 'return x[: config["n"]] + config["w"][0]'),  # a slice bound
    ],
)
def test_what_would_trace_differently_stays_a_report(setup: str, body: str) -> None:
    (finding,) = findings(module(WITH_ARRAY + setup, body))
    assert finding.fix is None, finding.message
    assert "traced) argument" not in finding.message


def test_a_change_before_the_call_makes_it_unsafe_and_one_after_does_not() -> None:
    body = 'return x * config["scale"]'
    before = findings(module('CONFIG = {"scale": 2.0}\nCONFIG["scale"] = jnp.float32(3.0)\n', body))[0]
    assert before.fix is not None and before.fix.applicability is Applicability.UNSAFE
    assert "changes an item" in before.notes[0] and "does not trace" in before.notes[0]
    after = module('import json\nCONFIG = {"scale": 2.0}\n', body) + "print(json.dumps(CONFIG))\n"
    (finding,) = findings(after)
    assert finding.fix is not None and finding.fix.applicability is Applicability.SAFE, finding.message


@pytest.mark.parametrize(
    ("filled", "frozen"),
    [
        ('CONFIG["scale"] = 3.0\n', True),
        ('CONFIG.update({"scale": 3.0, "n": 2})\n', True),
        ('CONFIG.update(scale=3.0)\n', False),  # keywords: not read as a display
        ('CONFIG["scale"] = jnp.float32(3.0)\n', False),  # an array: no frozen copy hashes it
        ('CONFIG["scale"] = [3.0]\n', False),  # a list inside: a shallow copy does not hash
    ],
    ids=["item", "update-display", "update-keywords", "array-item", "list-item"],
)
def test_a_dict_filled_with_python_values_is_frozen_at_the_call(filled: str, frozen: bool) -> None:
    """long-range-arena#7: the dict is built empty or partial and filled before the call; the call
    gets ``frozendict(CONFIG)``, a copy of what it holds there, and the dict stays a dict."""
    src = module('CONFIG = {"scale": 2.0}\n' + filled, 'return x * config["scale"]')
    (finding,) = findings(src)
    at_call = finding.fix is not None and "frozen copy of what it holds then" in finding.message
    assert at_call == frozen, finding.message
    if frozen:
        assert finding.fix.applicability is Applicability.SAFE
        assert "f(jnp.ones(2), frozendict(CONFIG))" in fixed(src)


def test_an_int_config_handed_to_code_out_of_sight_is_not_made_traced() -> None:
    """An int or a bool that goes where jaxfix cannot see (a module's constructor through ``**``) is
    most often a size or a flag, which a tracer breaks: the traced strategy is not offered."""
    src = module(
        "from mylib import make_model\nW = jnp.ones(2)\nCONFIG = {'w': W, 'width': 3}\n",
        "return make_model(**config)(x)",
    )
    (finding,) = findings(src)
    assert finding.fix is None and "traced) argument" not in finding.message, finding.message


def test_a_use_that_bypasses_the_jit_does_not_stop_the_edit() -> None:
    """jax#4143: the same function is also vmapped; that use never passes the jit being edited."""
    src = (
        "import jax\nimport jax.numpy as jnp\n\n\ndef f(x, par):\n    return x * par['a']\n\n\n"
        "params = {'a': 2.0}\ng = jax.jit(f, static_argnums=1)\nprint(g(jnp.ones(2), params))\n"
        "print(jax.vmap(f, (0, None))(jnp.ones((2, 2)), params))\n"
    )
    assert "g = jax.jit(f)\n" in fixed(src)
