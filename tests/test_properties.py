"""Properties of `fix_source` and `check` on generated programs (hypothesis, hypothesmith).

On any valid program: no exception (a text libcst itself cannot parse may
only raise `SourceError`), the fixed text parses, fixing it again changes
nothing, and the fast path (screen and slice) finds what the whole-module
analysis finds. A program with no JAX in it comes back unchanged.

hypothesmith's programs are arbitrary Python, so the rules mostly meet code
that merely looks odd; `jax_programs` builds small JAX-flavoured modules
(jit with static arguments, lax.cond with branch functions, dict configs,
scans and loops with counts) so the rules' own paths run too. Example
counts are moderate: the profile below keeps each test to seconds; set
``HYPOTHESIS_PROFILE=jaxfix-long`` for a longer hunt.
"""

from __future__ import annotations

import os

import hypothesmith
import libcst as cst
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from jaxfix.transforms import Options, SourceError, check, fix_source

settings.register_profile(
    "jaxfix",
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)
settings.register_profile("jaxfix-long", parent=settings.get_profile("jaxfix"), max_examples=2000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "jaxfix"))

UNSAFE = Options(unsafe_fixes=True)


def _libcst_parses(text: str) -> bool:
    try:
        cst.parse_module(text)
    except Exception:  # noqa: BLE001 - any failure means libcst cannot read it
        return False
    return True


def _findings(text: str, options: Options, narrow: bool) -> list[tuple]:
    return [(f.code, f.span, f.message, f.fix) for f in check(text, options, narrow=narrow).findings]


def _compiles(text: str) -> bool:
    try:
        compile(text, "<input>", "exec")
    except (SyntaxError, ValueError):
        return False  # libcst's grammar accepts some programs CPython's compiler rejects
    return True


def _holds(text: str) -> None:
    """Every property of one program, with and without unsafe fixes."""
    compiles = _compiles(text)
    for options in (Options(), UNSAFE):
        try:
            fixed = fix_source(text, options)
        except SourceError:
            assert not _libcst_parses(text), "SourceError on a module libcst parses"
            return
        if compiles:
            compile(fixed.text, "<fixed>", "exec")  # a fix never breaks a program that compiled
        assert fix_source(fixed.text, options).text == fixed.text, "a second fix changed the text"
        narrow = _findings(text, options, True)
        try:
            whole = _findings(text, options, False)
        except SourceError:
            # The whole analysis parses with libcst even where no rule has a seed; the fast path
            # never did, so it saw nothing to report either. libcst refuses some programs CPython
            # compiles (`A\n\\\r\n`: a line continuation before the end of the file), or
            # does not reproduce them.
            assert narrow == [], "the fast path found something in a module libcst cannot analyse"
            assert not _libcst_parses(text) or cst.parse_module(text).code != text, "SourceError on a module libcst reproduces"
            continue
        assert narrow == whole, "narrow != whole"


# -- arbitrary Python ----------------------------------------------------------------------


@given(hypothesmith.from_grammar())
def test_any_program_from_the_grammar(text):
    _holds(text)
    assert "jax" in text or fix_source(text).text == text


@given(hypothesmith.from_node())
def test_any_program_from_libcst_nodes(text):
    _holds(text)
    assert "jax" in text or fix_source(text, UNSAFE).text == text


@given(hypothesmith.from_grammar())
@example("A\n\\\r\n")  # libcst refuses a line continuation right before the end of the file
def test_arbitrary_code_under_jax_imports(text):
    """The same programs, with jax imported: the pre-filter no longer shields the rules."""
    _holds("import jax\nimport jax.numpy as jnp\nfrom functools import partial\n" + text)


# -- JAX-flavoured programs -------------------------------------------------------------------

NAMES = st.sampled_from(["f", "g", "h", "step", "body"])
PARAMS = st.sampled_from(["n", "x", "cfg", "k"])
COUNTS = st.sampled_from(["n", "cfg['n']", "cfg.n", "x.shape[0]", "k + 1", "3", "int(n)", "len(x)"])
VALUES = st.sampled_from(["3", "x", "n", "cfg", "{'n': 2}", "[1, 2]", "jnp.ones(3)", "k * 2", "(1, 2)"])
PREDICATES = st.sampled_from(["True", "x > 0", "n == 2", "cfg['flag']", "k"])


@st.composite
def jit_decorators(draw) -> str:
    static = draw(st.sampled_from(["(0,)", "1", "(0, 1)", "()", "2"]))
    names = draw(st.sampled_from(['("n",)', "['cfg']", '"k"', "('n', 'cfg')"]))
    return draw(
        st.sampled_from(
            [
                "",
                "@jax.jit\n",
                f"@partial(jax.jit, static_argnums={static})\n",
                f"@partial(jax.jit, static_argnames={names})\n",
                f"@functools.partial(jax.jit, static_argnums={static})\n",
                "@jax.vmap\n",
            ]
        )
    )


@st.composite
def bodies(draw) -> str:
    count, value = draw(COUNTS), draw(VALUES)
    return draw(
        st.sampled_from(
            [
                f"    return jnp.ones(({count},)) * x\n",
                f"    for i in range({count}):\n        x = x + i\n    return x\n",
                f"    for _ in range({count}):\n        x = x * 2\n    return x\n",
                f"    return jax.lax.scan(lambda c, _: (c + 1, c), x, None, length={count})\n",
                f"    c, ys = jax.lax.scan(lambda c, y: (c + y, c), x, {value})\n    return c\n",
                f"    return jnp.arange({count}) + x\n",
                f"    return x * cfg['{draw(st.sampled_from(['n', 'k']))}']\n",
                f"    return jax.lax.fori_loop(0, {count}, lambda i, c: c + i, x)\n",
                f"    if {draw(PREDICATES)}:\n        return x\n    return {value}\n",
            ]
        )
    )


@st.composite
def functions(draw) -> str:
    params = draw(st.lists(PARAMS, min_size=1, max_size=3, unique=True))
    if draw(st.booleans()):
        params[-1] += f"={draw(st.sampled_from(['3', 'None', '(1, 2)']))}"
    return f"{draw(jit_decorators())}def {draw(NAMES)}({', '.join(params)}):\n{draw(bodies())}\n"


@st.composite
def uses(draw) -> str:
    name, other, value, predicate = draw(NAMES), draw(NAMES), draw(VALUES), draw(PREDICATES)
    return draw(
        st.sampled_from(
            [
                f"y = jax.lax.cond({predicate}, {name}, {other}, {value}, x)\n",
                f"y = jax.lax.cond({predicate}, partial({name}, {value}), {other}, x)\n",
                f"y = jax.lax.switch(n, [{name}, {other}], {value}, x)\n",
                f"y = {name}({value}, x)\n",
                f"y = {name}(x, {value})\n",
                f"y = {name}(x, n={value})\n",
                f"y = jax.jit({name}, static_argnums=1)(x, {value})\n",
                f"y = jax.jit({name}, static_argnames='cfg')(x, cfg={value})\n",
                f"y = jax.vmap({name})(x, {value})\n",
                f"cfg = {draw(st.sampled_from(['{}', dict(n=2, flag=True).__repr__(), 'dict(n=3)', '[1, 2]']))}\n",
                f"cfg['n'] = {value}\n",
                f"{name} = jax.jit({name})\n",
                f"{name} = jax.jit({other}, static_argnums=(0,))\n",
            ]
        )
    )


@st.composite
def cond_scenarios(draw) -> str:
    """Jitted branches with a static parameter, and a cond or switch passing it an operand (JAX101/102)."""
    static = draw(st.sampled_from(["static_argnums=(0,)", "static_argnums=0", 'static_argnames=("n",)', "static_argnums=(-2,)"]))
    second = draw(st.sampled_from(["", f"@partial(jax.jit, {static})\n"]))
    value = draw(st.sampled_from(["3", "n", "x.shape[0]", "len(xs)", "N", "k"]))
    call = draw(
        st.sampled_from(
            [
                f"jax.lax.cond({draw(PREDICATES)}, f, g, {value}, x)",
                f"jax.lax.switch(i, [f, g], {value}, x)",
                f"jax.lax.cond(p, partial(f, {value}), partial(g, {value}), x)",
                f"jax.lax.cond(p, f, g, n={value}, x=x)",
            ]
        )
    )
    where = draw(st.sampled_from(["y = {call}\n", "@jax.jit\ndef run(p, x, n, i, k):\n    return {call}\n"]))
    return (
        f"N = 4\n\n@partial(jax.jit, {static})\ndef f(n, x):\n    return jnp.ones((n,)) * x\n\n"
        f"{second}def g(n, x):\n    return jnp.zeros((n,)) * x\n\n" + where.format(call=call)
    )


@st.composite
def config_scenarios(draw) -> str:
    """A dict, list or set config reaching a static parameter (JAX201)."""
    static = draw(st.sampled_from(['static_argnames=("cfg",)', "static_argnums=(1,)", "static_argnums=1"]))
    built = draw(st.sampled_from(["{'k': 2, 'n': 3}", "dict(k=2, n=3)", "[2, 3]", "{2, 3}", "{'k': [1, 2]}"]))
    read = draw(st.sampled_from(["cfg['k']", "cfg[0]", "len(cfg)", "sum(cfg)", "cfg.get('k', 1)"]))
    mutate = draw(st.sampled_from(["", "cfg['k'] = 5\n", "cfg.append(4)\n"]))
    call = draw(st.sampled_from(["h(x, cfg)", "h(x, cfg=cfg)", f"h(x, {built})"]))
    return (
        f"@partial(jax.jit, {static})\ndef h(x, cfg):\n    return x * {read}\n\n"
        f"cfg = {built}\n{mutate}y = {call}\n"
    )


@st.composite
def jax_programs(draw) -> str:
    header = "import functools\nfrom functools import partial\n\nimport jax\nimport jax.numpy as jnp\n\n"
    header += draw(st.sampled_from(["", "cfg = {'n': 2, 'flag': True}\n", "n = 3\nx = jnp.ones(3)\n"]))
    parts = draw(st.lists(st.one_of(cond_scenarios(), config_scenarios(), functions(), uses()), min_size=1, max_size=5))
    body = "".join(parts)
    if draw(st.booleans()):  # the same code inside a function: closures, locals
        body = "def main(x, n, cfg, k):\n" + "".join(f"    {line}\n" if line else "\n" for line in body.splitlines())
    return header + body


@given(jax_programs())
@settings(max_examples=2 * settings.default.max_examples)
def test_jax_flavoured_programs(text):
    compile(text, "<generated>", "exec")  # the strategy itself must only build valid code
    _holds(text)


def test_the_jax_strategy_reaches_the_rules():
    """Not vacuous: a sample of generated programs gets findings from every rule, and fixes."""
    codes: set[str] = set()
    fixed = 0

    @given(jax_programs())
    @settings(max_examples=4 * settings.default.max_examples, database=None, derandomize=True)
    def collect(text):
        nonlocal fixed
        result = fix_source(text, UNSAFE)
        codes.update(f.code for f in (*result.findings, *result.applied))
        fixed += result.changed

    collect()
    assert fixed > 0
    assert codes >= {"JAX101", "JAX102", "JAX201", "JAX301"}, codes
