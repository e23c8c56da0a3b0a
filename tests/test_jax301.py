"""JAX301 (traced-loop-length) piece by piece: what golden files cannot show on their own.

Golden cases (golden/JAX301) run every rewrite with real JAX; these tests pin
the decisions behind them: which values are traced, which loops are provably
fori_loops, which fix is chosen, and every refusal's reason.
"""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from jaxfix.transforms import Options, check_source, fix_source
from jaxfix.transforms.rules.jax301_traced_loop_length.static_count import int_value
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.loop_counts import find_sites, traced_counts, without_conversions
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.purity import is_pure
from jaxfix.transforms.semantics.traced_values import Taint


def analysis_of(src: str) -> Analysis:
    src = textwrap.dedent(src)
    return Analysis(ModuleContext(src, cst.parse_module(src), Options()))


def function(analysis: Analysis, name: str) -> cst.FunctionDef:
    return next(f for f in analysis.ctx.nodes_of(cst.FunctionDef) if f.name.value == name)


def jax301(src: str, **options) -> list:
    return [f for f in check_source(textwrap.dedent(src), Options(**options)) if f.code == "JAX301"]


def fixed(src: str) -> str:
    return fix_source(textwrap.dedent(src)).text


# -- tracing: which layers trace which parameters ---------------------------------

VMAPPED = """
import jax
import jax.numpy as jnp

def f(x, n):
    return x

jax.vmap(f, in_axes=(0, None))(jnp.ones(3), 5)
"""


def traced_by_routes(analysis: Analysis, name: str, param: str) -> list[bool | None]:
    fn = function(analysis, name)
    sig = function_info(analysis.ctx, fn).signature
    return [w.traces(analysis.ctx, sig, param) for r in analysis.traces.routes(fn) for w in r.wraps]


def test_vmap_traces_only_what_in_axes_maps() -> None:
    a = analysis_of(VMAPPED)
    assert traced_by_routes(a, "f", "x") == [True]
    assert traced_by_routes(a, "f", "n") == [False]
    default = analysis_of(VMAPPED.replace(", in_axes=(0, None)", ""))
    assert traced_by_routes(default, "f", "n") == [True]


def test_grad_traces_only_argnums() -> None:
    src = "import jax\ndef loss(x, n):\n    return x\ng = jax.grad(loss)\nh = jax.grad(loss, argnums=(0, 1))\n"
    a = analysis_of(src)
    assert traced_by_routes(a, "loss", "n") == [False, True]
    assert traced_by_routes(a, "loss", "x") == [True, True]


def test_custom_jvp_passes_values_through() -> None:
    src = "import jax\n@jax.custom_jvp\ndef f(n):\n    return n\nf(3)\njax.jit(f)(3)\n"
    a = analysis_of(src)
    fn = function(a, "f")
    routes = a.traces.routes(fn)
    assert [[w.name for w in r.wraps] for r in routes] == [["jax.custom_jvp"], ["jax.custom_jvp", "jax.jit"]]
    assert traced_by_routes(a, "f", "n") == [False, False, True]


def test_routes_follow_names_rebinding_and_inline_jit() -> None:
    src = """
    import jax

    def f(x, n):
        return x

    f = jax.jit(f, static_argnums=1)

    def main():
        return f(1.0, 2), jax.vmap(f)(1.0, 2)
    """
    a = analysis_of(src)
    routes = a.traces.routes(function(a, "f"))
    assert [[w.name for w in r.wraps] for r in routes] == [["jax.jit"], ["jax.jit", "jax.vmap"]]
    assert all(r.call is not None and not r.escapes for r in routes)


def test_a_function_stored_away_escapes() -> None:
    a = analysis_of("import jax\ndef f(n):\n    return n\ntable = {'f': f}\n")
    assert [r.escapes for r in a.traces.routes(function(a, "f"))] == [True]


def test_reverse_mode_reach_follows_calls_and_decorators() -> None:
    src = """
    import jax

    def inner(x):
        return x

    def outer(x):
        return inner(x) * 2

    @jax.value_and_grad
    def decorated(x):
        return x

    def unrelated(x):
        return x

    g = jax.grad(outer)
    """
    a = analysis_of(src)
    roots = a.traces.handed_to({"jax.grad", "jax.value_and_grad"})
    assert {r.name.value for r in roots} == {"outer", "decorated"}
    reached = {f.name.value for f in a.traces.reached_from(roots) if isinstance(f, cst.FunctionDef)}
    assert reached == {"outer", "inner", "decorated"}


# -- tracedness ---------------------------------------------------------------------


def count_sources(src: str) -> list:
    a = analysis_of(src)
    return [c for site in find_sites(a.ctx) for c in traced_counts(a.ctx, a.traced, site)]


def test_metadata_of_a_tracer_is_static() -> None:
    src = """
    import jax
    @jax.jit
    def f(x):
        for _ in range(x.shape[0]):
            x = x + 1
        return jax.lax.scan(lambda c, _: (c, None), x, None, length=len(x))
    """
    assert count_sources(src) == []


def test_traced_through_names_arithmetic_and_calls() -> None:
    src = """
    import jax
    import jax.numpy as jnp
    @jax.jit
    def f(x, n):
        m = jnp.maximum(n, 1) * 2
        for _ in range(int(m + 1)):
            x = x + 1
        return x
    """
    (count,) = count_sources(src)
    assert count.source.taint is Taint.TRACED and count.source.param == "n"
    assert not count.concretized_elsewhere


def test_a_static_parameter_fed_by_vmap_or_an_array() -> None:
    src = """
    from functools import partial
    import jax
    import jax.numpy as jnp

    @partial(jax.jit, static_argnums=0)
    def f(n):
        return jax.lax.scan(lambda c, _: (c, None), 0.0, None, length=n)[0]

    {use}
    """
    for use in ("jax.vmap(f)(jnp.arange(3))", "f(jnp.array(3))", "k = jnp.ones(2)[0]; f(k)"):
        (count,) = count_sources(src.format(use=use))
        assert count.source.taint is Taint.FED, use
    assert count_sources(src.format(use="f(3)")) == []


def test_a_bound_method_under_positional_in_axes_is_not_guessed() -> None:
    src = """
    import jax
    import jax.numpy as jnp

    class M:
        def run(self, x, n):
            return jnp.arange(n.item()) * x

        def go(self):
            return jax.vmap(self.run, in_axes={axes})(jnp.ones(2), jnp.array([2, 2]))
    """
    assert count_sources(src.format(axes="0"))  # every argument mapped: no position needed
    assert count_sources(src.format(axes="(0, None)")) == []


def test_a_parameter_filled_by_a_traced_argument() -> None:
    src = """
    import jax

    def helper(x, n):
        for _ in range(n):
            x = x * 2
        return x

    @jax.jit
    def run(x, n):
        return helper(x, n)

    def eager(x):
        return helper(x, 3)
    """
    (count,) = count_sources(src)
    assert count.source.function.name.value == "helper"
    assert "call on line 11" in count.source.reason


def test_concretized_by_a_name_elsewhere() -> None:
    src = """
    import jax
    @jax.jit
    def f(x, n):
        m = n.item()
        for _ in range(m):
            x = x + 1
        return x
    """
    (count,) = count_sources(src)
    assert count.concretized_elsewhere


# -- counts without their conversions ---------------------------------------------


@pytest.mark.parametrize(
    ("count", "kept", "dropped"),
    [
        ("n.item()", "n", "n"),
        ("int(n)", "n", "n"),
        ("operator.index(n)", "n", "n"),
        ("n.astype(int).item()", "n.astype(int)", "n"),
        ("int(n.item())", "n", "n"),
        ("int(n + 1) * 2", "(n + 1) * 2", "(n + 1) * 2"),
        ("n.item() + 1", "n + 1", "n + 1"),
    ],
)
def test_conversions_removed(count: str, kept: str, dropped: str) -> None:
    src = f"import jax, operator\n@jax.jit\ndef f(x, n):\n    for _ in range({count}):\n        x = x + 1\n    return x\n"
    a = analysis_of(src)
    (c,) = [c for site in find_sites(a.ctx) for c in traced_counts(a.ctx, a.traced, site)]
    assert without_conversions(a.ctx, c, astype=True) == kept
    assert without_conversions(a.ctx, c, astype=False) == dropped


def test_int_value_folds_constants() -> None:
    a = analysis_of("K = 3\nM = K * 2 + 1\nx = (M, 2 ** 70, 1 // 0, 2.0, True)\n")
    value = next(n for n in a.ctx.nodes_of(cst.Tuple))
    assert [int_value(a, e.value) for e in value.elements] == [7, None, None, None, None]


def test_purity() -> None:
    a = analysis_of(
        "import jax.numpy as jnp\nimport jax\ndef step(c, _):\n    print(c)\n    return c, None\n"
        "x = (jnp.sin(a) + b[0], print(a), rng.normal(), jax.debug.print('x'), c.T,\n"
        "     jax.lax.scan(lambda c, _: (c * 2, None), x, None, length=3),\n"
        "     jax.lax.scan(step, x, None, length=3), jax.lax.fori_loop(0, 3, body_fun=lambda i, c: print(c), init_val=x),\n"
        "     jax.vmap(lambda v: v + 1)(x), jax.vmap(step))\n"
    )
    value = next(n for n in a.ctx.nodes_of(cst.Tuple) if len(n.elements) == 10)
    expected = [True, False, False, False, True, True, False, False, True, False]
    assert [is_pure(a.ctx, e.value) for e in value.elements] == expected


# -- the choice of fix -------------------------------------------------------------

SCAN_UNDER_VMAP = """
import jax
import jax.numpy as jnp

def f(n):
    def step(c, _):
        return c * 2.0, c
    {target} = jax.lax.scan(step, jnp.ones(2), None, length=n.item()){rest}

print(jax.vmap(f)(jnp.array([1, 2])))
"""


def scan_case(target: str = "c, _", rest: str = "\n    return c") -> str:
    return SCAN_UNDER_VMAP.format(target=target, rest=rest)


def test_discarded_ys_forms_are_rewritten() -> None:
    assert "c = jax.lax.fori_loop(0, n, step, jnp.ones(2))" in fixed(scan_case())
    assert "(c) = jax.lax.fori_loop" not in fixed(scan_case("(c, _)"))
    assert "c = jax.lax.fori_loop(0, n, step, jnp.ones(2))" in fixed(scan_case("(c, _)"))
    assert "[c, unused] = " not in fixed(scan_case("[c, unused]"))


def test_fori_loop_spelled_as_the_module_spells_lax() -> None:
    with_jax = scan_case().replace("import jax\n", "import jax\nfrom jax.lax import scan\n", 1).replace("jax.lax.scan(", "scan(")
    assert "c = jax.lax.fori_loop(0, n, step, jnp.ones(2))" in fixed(with_jax)  # no import needed
    without = with_jax.replace("import jax\n", "from jax import vmap\n", 1).replace("jax.vmap(", "vmap(")
    out = fixed(without)
    assert "from jax.lax import fori_loop\n" in out and "c = fori_loop(0, n, step, jnp.ones(2))" in out
    aliased = scan_case().replace("import jax\n", "import jax\nimport jax.lax as L\n", 1).replace("jax.lax.scan(", "L.scan(")
    assert "c = L.fori_loop(0, n, step, jnp.ones(2))" in fixed(aliased)
    loop = range_case("for _ in range(n.item()):\n    x = x + y\n")
    assert "jax.lax.fori_loop(" in fixed(loop) and "import" not in fixed(loop).replace("import jax\n", "", 1)


def test_ys_used_is_reported_with_the_masked_scan() -> None:
    for target, rest in [("c, ys", "\n    return c, ys"), ("c, _", "\n    return _"), ("out", "\n    return out[0]")]:
        (finding,) = jax301(scan_case(target, rest))
        assert finding.fix is None and "not rewritten" in finding.message
        assert any("masked scan" in n and "silently truncated" in n for n in finding.notes)


def test_carry_subscript_other_than_zero_is_not_the_carry() -> None:
    src = scan_case("c", "\n    return c").replace("length=n.item())", "length=n.item())[1]")
    (finding,) = jax301(src)
    assert finding.fix is None


def test_body_itself_only_when_provably_the_same() -> None:
    assert "def step(_, c):" in fixed(scan_case())
    wrapped = "jax.lax.fori_loop(0, n, lambda _, c: step(c, None)[0], jnp.ones(2))"
    used_twice = scan_case().replace("    return c\n", "    return c + step(c, None)[0]\n")
    assert wrapped in fixed(used_twice)
    effectful_y = scan_case().replace("return c * 2.0, c", "return c * 2.0, print(c)")
    assert wrapped in fixed(effectful_y)
    annotated = scan_case().replace("def step(c, _):", "def step(c, _) -> tuple:")
    assert wrapped in fixed(annotated)


def test_wrapper_names_avoid_the_body_name() -> None:
    src = """
    import jax
    import jax.numpy as jnp

    def c(carry, _):
        return carry * 2.0, None

    def f(n):
        out, _ = jax.lax.scan(c, jnp.ones(2), None, length=n.item())
        return out + c(out, None)[0]

    jax.vmap(f)(jnp.array([1, 2]))
    """
    assert "lambda _, carry: c(carry, None)[0]" in fixed(src)


def test_scan_options_and_comments_refuse() -> None:
    (reverse,) = jax301(scan_case().replace("length=n.item()", "length=n.item(), reverse=True"))
    assert reverse.fix is None and "reverse" in reverse.message
    commented = scan_case().replace("None, length=n.item()", "None,  # no xs\n        length=n.item()")
    (comment,) = jax301(commented)
    assert comment.fix is None and "comments" in comment.message


def test_reverse_mode_grad_anywhere_in_reach_refuses() -> None:
    base = scan_case()
    for use in ("jax.grad(lambda x: f(x).sum())", "jax.vjp(f, 1)", "jax.jacrev(f)"):
        (finding,) = jax301(base + f"\n{use}\n")
        assert finding.fix is None and "reverse mode" in finding.message, use
    (forward,) = jax301(base + "\njax.jvp(f, (1,), (1,))\n")
    assert forward.fix is not None and any("Reverse-mode differentiation" in n for n in forward.notes)


def test_static_first_when_every_call_passes_an_int() -> None:
    src = """
    import jax
    from functools import partial

    @jax.jit
    def run(x, n):
        return jax.lax.scan(lambda c, _: (c + 1, c), x, None, length=int(n))

    run(1.0, {arg})
    """
    assert '@partial(jax.jit, static_argnames=("n",))' in fixed(src.format(arg="3"))
    refused = fixed(src.format(arg="jnp.array(3)"))
    assert "static_argnames" not in refused and "int(n)" in refused  # ys used: report only
    (finding,) = jax301(src.format(arg="2.5"))
    assert any("does not pass `n` a Python int" in n for n in finding.notes)


def test_static_fix_waits_for_every_loop_of_the_parameter() -> None:
    src = """
    import jax

    @jax.jit
    def run(x, n):
        for _ in range(int(n)):
            x = x + 1
        return jax.lax.scan(lambda c, _: (c, c), x, None, length=n.item())

    run(1.0, 3)
    """
    out = fixed(src)
    assert "range(n)" in out and "length=n)" in out and out.count("static_argnames") == 1
    silenced = src.replace("range(int(n)):", "range(int(n)):  # jaxfix: ignore")
    assert "static_argnames" not in fixed(silenced) and "length=n.item()" in fixed(silenced)


def test_static_refused_when_the_parameter_is_used_as_an_array() -> None:
    src = """
    import jax
    @jax.jit
    def run(x, n):
        for _ in range(n.item()):
            x = x + n.sum()
        return x
    run(1.0, 3)
    """
    (finding,) = jax301(src)
    assert "static_argnames" not in fixed(src)
    assert "n.sum()" in " ".join(finding.notes)


def test_two_loops_share_a_static_parameter() -> None:
    src = """
    from functools import partial
    import jax
    import jax.numpy as jnp

    @partial(jax.jit, static_argnums=0)
    def f(n, x):
        a = jax.lax.scan(lambda c, _: (c + 1, None), x, None, length=n)[0]
        for _ in range(n):
            a = a * 2
        return a

    jax.vmap(f, in_axes=(0, None))(jnp.arange(3), 1.0)
    """
    out = fixed(src)
    assert "@jax.jit" in out and out.count("fori_loop(0, n,") == 2
    assert check_source(out) == []
    silenced = fixed(src.replace("for _ in range(n):", "for _ in range(n):  # jaxfix: ignore[JAX301]"))
    assert "static_argnums=0" in silenced and "for _ in range(n):" in silenced and "fori_loop" not in silenced
    blocked = src.replace("a = a * 2", "a = a * 2 + i").replace("for _ in", "for i in")
    findings = jax301(blocked)
    assert len(findings) == 2 and all(f.fix is None for f in findings)
    assert "must stop being static" in findings[0].message


# -- Python loops ----------------------------------------------------------------------

RANGE = """
import jax
@jax.jit
def f(x, n):
    y = x
{body}
    return x
"""


def range_case(body: str) -> str:
    return RANGE.format(body=textwrap.indent(textwrap.dedent(body), "    "))


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("for _ in range(n.item()):\n    if x > 0:\n        x = x - 1\n", "compound statement"),
        ("for _ in range(n.item()):\n    x = x + 1\n    print(x)\n", "more than assign"),
        ("for _ in range(n.item()):\n    x = foo(x)\n", "may have effects"),
        ("for _ in range(n.item()):\n    x.y = 1\n", "stores into"),
        ("for i in range(n.item()):\n    x = x + i\n", "index `i` is read"),
        ("for _ in range(n.item()):\n    x = x + 1\nelse:\n    x = 0\n", "`else`"),
        ("for _ in range(n.item()):\n    z = z + 1\n", "not bound before"),
        ("for _ in range(n.item()):\n    t = x\n", "carries no state"),
        ("for _ in range(n.item()): x = x + 1\n", "on the `for` line"),
        ("for _ in range(1, n.item()):\n    x = x + 1\n", "start or a step"),
    ],
)
def test_python_loops_that_are_only_reported(body: str, reason: str) -> None:
    (finding,) = jax301(range_case(body))
    assert finding.fix is None and reason in finding.message


def test_python_loop_carries_what_is_read_later() -> None:
    body = "for _ in range(n.item()):\n    t = x * 2\n    x = t + y\nx = x + t\n"
    out = fixed(range_case(body).replace("    y = x\n", "    y = x\n    t = x\n"))
    assert "def loop_body(_, carry):" in out and "t, x = carry" in out
    assert "t, x = jax.lax.fori_loop(0, n, loop_body, (t, x))" in out


def test_python_loop_def_name_avoids_names_in_use() -> None:
    body = "for _ in range(n.item()):\n    x = x + 1\n    x = x * 2\n"
    src = range_case(body) + "\ndef loop_body():\n    pass\n"
    assert "def loop_body_2(_, x):" in fixed(src)


def test_python_loop_one_line_form() -> None:
    assert "x = jax.lax.fori_loop(0, n, lambda _, x: x + y, x)" in fixed(range_case("for _ in range(n.item()):\n    x = x + y\n"))


# -- the rule as a whole -------------------------------------------------------------


def test_jax101_owns_operands_a_primitive_passes_into_static_parameters() -> None:
    src = """
    from functools import partial
    import jax
    import jax.numpy as jnp

    @partial(jax.jit, static_argnums=0)
    def ramp(n, x):
        return jnp.arange(n) * x

    jax.lax.cond(True, ramp, ramp, 3, 1.0)
    """
    assert [f.code for f in check_source(textwrap.dedent(src))] == ["JAX101"]


def test_suppression_and_select() -> None:
    src = scan_case().replace("length=n.item())", "length=n.item())  # jaxfix: ignore[JAX301]")
    assert jax301(src) == []
    assert jax301(scan_case(), ignore=frozenset({"JAX3"})) == []


def test_documentation_names_the_fix_order() -> None:
    from jaxfix.transforms import RULES

    doc = RULES["JAX301"].documentation()
    assert RULES["JAX301"].name == "traced-loop-length"
    for phrase in ("static", "lax.fori_loop", "masked scan", "silently truncates", "reverse-mode grad"):
        assert phrase in doc


def test_purity_follows_module_helpers() -> None:
    """A def of the module whose body only binds locals and returns is pure (jax#25186's
    ``uxCosFun``); one that prints, stores, branches, recurses or calls NumPy is not."""
    a = analysis_of(
        "import jax.numpy as jnp\nimport numpy as np\n"
        "def ux(z, dx, h):\n    '''Doc.'''\n    w = z * np.pi / h\n    return dx * 0.5 * (1.0 - jnp.cos(w))\n"
        "def twice(z):\n    return ux(z, 1.0, 2.0) + ux(z, 2.0, 1.0)\n"
        "def loud(z):\n    print(z)\n    return z\n"
        "def stores(z):\n    cache.x = z\n    return z\n"
        "def branches(z):\n    if z:\n        return 1\n    return 0\n"
        "def again(z):\n    return again(z)\n"
        "def host(z):\n    return np.cos(z)\n"
        "@jax.jit\ndef jitted(z):\n    return z\n"
        "x = (ux(a, b, c), twice(a), loud(a), stores(a), branches(a), again(a), host(a), jitted(a), ux(print(a), 1, 1))\n"
    )
    value = next(n for n in a.ctx.nodes_of(cst.Tuple) if len(n.elements) == 9)
    expected = [True, True, False, False, False, False, False, False, False]
    assert [is_pure(a.ctx, e.value) for e in value.elements] == expected


def test_purity_of_functional_updates() -> None:
    """``x.at[i].set(v)`` and a flax struct's own ``replace`` build new values (waymax#14's
    ``state.replace(timestep=t)``); a ``replace`` the class defines itself, one of a plain
    class, ``.at[i].apply(f)`` and a positional ``replace`` may do anything."""
    a = analysis_of(
        "import dataclasses\nfrom flax import struct\n"
        "@struct.dataclass\nclass State:\n    t: int\n"
        "@struct.dataclass\nclass Own:\n    t: int\n    def replace(self, **kw):\n        log.append(kw)\n        return self\n"
        "@dataclasses.dataclass\nclass Plain:\n    t: int\n"
        "def f(s: State, o: Own, p: Plain, x):\n"
        "    return (x.at[0].set(1.0), x.at[1:].add(x[0]), s.replace(t=s.t + 1), o.replace(t=1), p.replace(t=1),\n"
        "            x.at[0].apply(g), s.replace(1), x.at[print(1)].set(0), s.replace(t=print(1)))\n"
    )
    value = next(n for n in a.ctx.nodes_of(cst.Tuple) if len(n.elements) == 9)
    expected = [True, True, True, False, False, False, False, False, False]
    assert [is_pure(a.ctx, e.value) for e in value.elements] == expected


EULER = """
import jax
import jax.numpy as jnp
import numpy as np


def ux(z, dx, h):
    return dx * 0.5 * (1.0 - jnp.cos(z * np.pi / h))


@jax.jit
def euler(x, z, dt, i_start, i_end):
    steps = i_end - i_start
    for i in range(steps):
        x = x + dt * ux(z, 0.2, 1.0)
        z = z + dt * 0.1
    return x, z


print(euler(0.0, 0.0, 0.05, {start}, {end}))
"""


def test_count_from_two_parameters_both_made_static() -> None:
    (finding,) = jax301(EULER.format(start="10", end="30"))
    assert "so `i_start` and `i_end` become static" in finding.message
    assert '@partial(jax.jit, static_argnames=("i_start", "i_end"))' in fixed(EULER.format(start="10", end="30"))


def test_count_from_arrays_runs_a_pure_helper_in_a_fori_loop() -> None:
    """Arrays passed for the indices: no static fix, and the loop body calls a pure helper of the
    module, so the loop becomes a fori_loop (run with JAX: the same 0.001516 as the hand loop)."""
    src = EULER.format(start="jnp.array(10)", end="jnp.array(30)")
    (finding,) = jax301(src)
    assert "becomes a `lax.fori_loop`" in finding.message
    out = fixed(src)
    assert "x, z = jax.lax.fori_loop(0, steps, loop_body, (x, z))" in out


def test_count_through_a_local_used_as_an_array_is_not_made_static() -> None:
    src = EULER.format(start="10", end="30").replace("    return x, z\n\n\nprint", "    return x * steps.sum(), z\n\n\nprint")
    (finding,) = jax301(src)
    assert "becomes a `lax.fori_loop`" in finding.message  # the static fix refused, the next one taken
    assert "static_argnames" not in fixed(src)
