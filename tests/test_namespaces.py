"""JAX201 on attribute bags: an ``argparse.Namespace`` (or ``types.SimpleNamespace``) passed as a
static argument cannot hash; it becomes a namedtuple of its fields where it is built, when every
use only reads fields, and is reported when some use could tell the two apart.

The golden cases run such programs with JAX (golden/JAX201/argparse_namespace_module_level,
namespace_options_static_through_partial, namespace_from_keywords_unsafe,
refuse_namespace_printed_in_body); these pin the edges, each on the fast path and the whole
analysis, and run the rewritten programs that print.
"""

from __future__ import annotations

import textwrap

import pytest

from jaxfix.transforms import Options, check, fix_source
from jaxfix.transforms.core.findings import Applicability

from .helpers import run_in_process

FROZEN = 'args = namedtuple("Namespace", vars(args))(**vars(args))'


def program(options: str = 'parser.add_argument("--scale", type=float, default=2.0)', body: str = "return x * opts.scale",
            after_parse: str = "", call: str = "scale(jnp.ones(2), opts=args)") -> str:
    return textwrap.dedent(
        """\
        import argparse
        from functools import partial

        import jax
        import jax.numpy as jnp


        @partial(jax.jit, static_argnames=("opts",))
        def scale(x, opts):
            {body}


        parser = argparse.ArgumentParser()
        {options}
        args = parser.parse_args([])
        {after_parse}
        RESULT = {call}
        """
    ).format(body=body, options=options, after_parse=after_parse, call=call)


def the_finding(src: str, **options):
    """The one JAX201 finding, the same on the fast path and the whole analysis."""
    found = []
    for narrow in (True, False):
        result = check(src, Options(**options), narrow=narrow)
        found.append([(f.code, f.line, f.fix.applicability if f.fix else None) for f in result.findings])
    assert found[0] == found[1], "the fast path and the whole analysis disagree"
    (finding,) = [f for f in check(src, Options(**options), narrow=False).findings if f.code == "JAX201"]
    return finding


def test_fields_only_read_are_frozen_where_parsed_and_the_program_runs() -> None:
    src = program()
    finding = the_finding(src)
    assert finding.fix and finding.fix.applicability is Applicability.SAFE
    fixed = fix_source(src, Options()).text
    assert FROZEN in fixed and "from collections import namedtuple" in fixed
    assert run_in_process(fixed)["RESULT"].tolist() == [2.0, 2.0]
    assert fix_source(fixed, Options()).text == fixed


def test_a_use_outside_that_tells_them_apart_is_reported_not_frozen_at_the_call() -> None:
    """A namedtuple class made at each call is a new type each time: jit would compile every call."""
    finding = the_finding(program(after_parse="print(args)"))
    assert not finding.fix and "`print(args)` may tell a namedtuple from a namespace (line 16)" in finding.message


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("print(vars(opts))\n    return x", "`vars(opts)`"),
        ("opts.scale = 3.0\n    return x", "assigns an attribute"),
        ("return x * sum(opts)", "`sum(opts)`"),
        ("return x * len(opts.__dict__)", "`opts.__dict__`"),
        ("return x * getattr(opts, NAME)", "`getattr(opts, NAME)`"),
        ("return x if opts == OTHER else -x", "`opts == OTHER`"),
    ],
)
def test_a_use_in_the_body_that_tells_them_apart_is_reported(body: str, why: str) -> None:
    finding = the_finding(program(body=body))
    assert not finding.fix and "not rewritten" in finding.message and why in finding.message


@pytest.mark.parametrize("body", ['return x * getattr(opts, "scale")', 'return x * opts.scale if hasattr(opts, "scale") else x',
                                  "return helper(x, opts)", "return partial(helper, opts=opts)(x)"])
def test_reads_through_getattr_helpers_and_partial_are_followed(body: str) -> None:
    src = program(body=body) + "\n\ndef helper(x, opts):\n    return x * opts.scale\n"
    finding = the_finding(src)
    assert finding.fix and finding.fix.applicability is Applicability.SAFE


@pytest.mark.parametrize(
    ("option", "why"),
    [
        ('parser.add_argument("--sizes", type=int, nargs="+", default=[1])', "stores a list"),
        ('parser.add_argument("--tag", action="append")', "stores a list"),
        ('parser.add_argument("--table", type=json.loads, default="{}")', "converts with `json.loads`"),
        ('parser.add_argument("--_hidden", type=int, default=1)', "field `_hidden`"),
        ('parser.add_argument("--level", type=int, default=LEVELS)', "`default` that may not hash"),
        ("add_common_options(parser)", "used where jaxfix cannot list its options"),
    ],
)
def test_fields_not_proven_hashable_make_the_rewrite_unsafe(option: str, why: str) -> None:
    src = "import json\nLEVELS = [1, 2]\n\ndef add_common_options(p):\n    pass\n\n" + program(
        options='parser.add_argument("--scale", type=float, default=2.0)\n' + option
    )
    finding = the_finding(src)
    assert finding.fix.applicability is Applicability.UNSAFE and why in " ".join(finding.notes)
    assert fix_source(src, Options()).text == src  # not applied without --unsafe-fixes


def test_an_attribute_assigned_after_parsing_is_reported() -> None:
    finding = the_finding(program(after_parse="args.layers = [64, 64]"))
    assert not finding.fix and "`args.layers = [64, 64]` assigns an attribute" in finding.message


def test_an_argument_evaluated_inline_is_not_written_twice() -> None:
    finding = the_finding(program(call='scale(jnp.ones(2), opts=parser.parse_args(["--scale", "3"]))'))
    assert not finding.fix and "not bound to a name where it is built" in finding.message


def test_a_keyword_beside_star_arguments_lands_by_name() -> None:
    src = program(call="scale(*[jnp.ones(2)], opts=args)")
    assert the_finding(src).fix
    assert run_in_process(fix_source(src, Options()).text)["RESULT"].tolist() == [2.0, 2.0]


@pytest.mark.parametrize(
    ("built", "safe"),
    [("types.SimpleNamespace(scale=2.0)", True), ("types.SimpleNamespace(scale=2.0, sizes=[1])", False),
     ("argparse.Namespace(**{'scale': 2.0})", False)],
)
def test_namespaces_built_by_hand(built: str, safe: bool) -> None:
    src = "import types\n" + program(options="pass").replace("args = parser.parse_args([])", f"args = {built}")
    finding = the_finding(src, unsafe_fixes=True)
    assert finding.fix and (finding.fix.applicability is Applicability.SAFE) == safe
    fixed = fix_source(src, Options(unsafe_fixes=True)).text
    if safe:
        assert 'namedtuple("SimpleNamespace", vars(args))' in fixed
        assert run_in_process(fixed)["RESULT"].tolist() == [2.0, 2.0]
