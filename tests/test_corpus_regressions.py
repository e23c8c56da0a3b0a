"""False positives the corpus run found (tests/corpus/proof.py), each removed at its cause.

Every test names the real code it stands for. The JAX facts behind them are
in docs/jax301-behaviour.md, section D (printed by
docs/jax301-cases/d_defaults_pytrees_bound_methods.py).
"""

from __future__ import annotations

import textwrap

from jaxfix.transforms import Options, check, check_source, fix_source


def findings(src: str, code: str = "JAX301", **options) -> list:
    return [f for f in check_source(textwrap.dedent(src), Options(unsafe_fixes=True, **options)) if f.code == code]


def expected(src: str, code: str = "JAX301") -> list:
    """The findings set apart because the code expects their error (not reported by default)."""
    return [f for f in check(textwrap.dedent(src), Options(unsafe_fixes=True)).expected if f.code == code]


def unchanged(src: str) -> bool:
    src = textwrap.dedent(src)
    return fix_source(src, Options(unsafe_fixes=True)).text == src


# -- a parameter whose default the call leaves alone (jax docs, tests) ------------------

DEFAULTED = """
import jax
import jax.numpy as jnp

@jax.jit
def f(x, n=3):
    for _ in range(n):
        x = x * 2
    return x

{call}
"""


def test_a_default_the_call_leaves_out_is_a_python_value():
    """jit traces the arguments a call passes, never a default (section D1)."""
    assert findings(DEFAULTED.format(call="f(jnp.ones(2))")) == []
    assert findings(DEFAULTED.format(call="f(jnp.ones(2), n=4)"))
    assert findings(DEFAULTED.format(call="f(jnp.ones(2), 4)"))


def test_a_default_behind_a_partial_or_used_elsewhere_is_not_guessed():
    assert findings(DEFAULTED.format(call="g = functools.partial(f, n=2)")) == []
    assert findings(DEFAULTED.format(call="handlers = [f]")) == []


# -- fields of a pytree argument (jax docs/the-training-cookbook.py) -----------------------

CONFIG_FIELD = """
import jax
import jax.numpy as jnp

@jax.jit
def init(key, config):
    params = []
    for _ in range({count}):
        params.append(jax.random.normal(key, (3,)))
    return params

init(jax.random.key(0), make_config())
"""


def test_an_attribute_of_a_traced_parameter_may_be_a_static_field():
    """A dataclass pytree's static field arrives as a Python value (section D2)."""
    for count in ("config.num_layers", "config.layers.count", "config.depth()", "len(config.sizes)"):
        assert findings(CONFIG_FIELD.format(count=count)) == [], count


def test_array_members_of_a_traced_parameter_are_still_traced():
    for count in ("config.sum()", "config.T.sum()", "config.max().astype(int)", "config.item()"):
        assert findings(CONFIG_FIELD.format(count=count)), count


# -- bound methods (brax envs/wrappers/training.py, training/replay_buffers.py) -------------

RECEIVER = """
import jax
import jax.numpy as jnp

class Repeat:
    def __init__(self, env, action_repeat):
        self.env = env
        self.action_repeat = action_repeat

    def step(self, state):
        def body(c, _):
            return self.env.step(c), None
        return jax.lax.scan(body, state, (), self.action_repeat)[0]

class Batched:
    def __init__(self, env):
        self.env = env

    def step(self, states):
        return {mapped}(states)
"""


def test_the_receiver_of_a_bound_method_is_not_mapped():
    """``jax.vmap(obj.step)`` maps step's other parameters, never ``self`` (section D3)."""
    assert findings(RECEIVER.format(mapped="jax.vmap(self.env.step)")) == []
    assert findings(RECEIVER.format(mapped="jax.pmap(self.env.step)")) == []


COUNTED = """
import jax
import jax.numpy as jnp

class Repeat:
    def step(self, state, n):
        return jax.lax.scan(lambda c, _: (c * 2, None), state, (), n)[0]

class Batched:
    def __init__(self, env):
        self.env = env

    def step(self, states, ns):
        return {mapped}
"""


def test_a_method_found_only_by_name_is_not_assumed():
    """``self.env.step`` may be any class's step: no route through it is trusted; ``Repeat.step`` is that function."""
    assert findings(COUNTED.format(mapped="jax.vmap(self.env.step)(states, ns)")) == []
    (finding,) = findings(COUNTED.format(mapped="jax.vmap(Repeat.step, in_axes=(None, 0, 0))(self.env, states, ns)"))
    assert "`n`" in finding.message


def test_self_method_within_its_own_class_is_bound():
    src = """
    import jax
    import jax.numpy as jnp

    class Model:
        def __init__(self, n):
            self.n = n

        def run(self, x):
            return jnp.arange(self.n) * x

        def batched(self, xs):
            return jax.vmap(self.run)(xs)
    """
    assert findings(src) == []


# -- code a test runs to watch it fail (jax tests/lax_numpy_test.py, lax_control_flow_test.py) --

EXPECTED = """
import jax
import pytest
import unittest

class T(unittest.TestCase):
    def test_message(self):
        @jax.jit
        def f(x, n):
            for _ in range(n):
                x = x * x
            return x

        {expect}
"""


def test_a_loop_a_test_expects_to_fail_is_reported_not_rewritten():
    for expect in (
        "self.assertRaises(TypeError, lambda: f(3., 3))",
        "with self.assertRaisesRegex(TypeError, 'index'):\n            f(3., 3)",
        "with pytest.raises(TypeError):\n            f(3., 3)",
    ):
        src = EXPECTED.format(expect=expect)
        assert findings(src) == [], expect  # a test watching the error: not a finding (issue 17.4)
        (skipped,) = expected(src)
        (finding,) = findings(src, expected_errors=True)
        assert finding == skipped
        assert finding.fix is None and "expects this error" in finding.message, expect
        assert unchanged(src)


def test_the_same_loop_outside_an_expected_failure_is_still_fixed():
    src = EXPECTED.format(expect="self.assertEqual(f(3., 3), 6561.)")
    (finding,) = findings(src)
    assert finding.fix is not None
    assert not unchanged(src)


def test_a_jitted_bound_method_is_made_static_by_its_own_positions():
    """``jax.jit(self.run)`` counts positions without ``self``: the static fix names the parameter
    (run with JAX: `8.0`, as the loop prints)."""
    src = """
    import jax

    class M:
        def run(self, x, n):
            for _ in range(n):
                x = x * 2
            return x

        def go(self, x):
            return jax.jit(self.run)(x, 3)
    """
    (finding,) = findings(src)
    assert 'jax.jit(self.run, static_argnames=("n",))(x, 3)' in fix_source(textwrap.dedent(src)).text
    numbered = src.replace("jax.jit(self.run)", "jax.jit(self.run, static_argnums=(0,))")
    # x at position 0 (after self) is static already and an array-free float: n joins it by position.
    assert "jax.jit(self.run, static_argnums=(0, 1))(x, 3)" in fix_source(textwrap.dedent(numbered)).text


# -- the same class for every rule: a fix whose own edits land in an expected failure -------

EXPECTING_RULES = """
import functools
import unittest

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def f(x, cfg):
    return x * cfg["k"]


@functools.partial(jax.jit, static_argnames=["N"])
def run_true(N, x):
    return jnp.ones((N,)) * x


@functools.partial(jax.jit, static_argnames=["N"])
def run_false(N, x):
    return jnp.zeros((N,)) * x


SHARED = {"k": 2}


class T(unittest.TestCase):
    def test_hashing_error(self):
        cfg = {"k": 2}
        with self.assertRaisesRegex(ValueError, "Non-hashable static arguments"):
            f(1.0, cfg)

    def test_in_a_lambda(self):
        self.assertRaises(ValueError, lambda: f(1.0, dict(k=3)))

    def test_shared(self):
        with self.assertRaises(ValueError):
            f(1.0, SHARED)

    def test_cond(self):
        with self.assertRaises(Exception):
            jax.lax.cond(True, run_true, run_false, 3, 1.0)


def ordinary():
    return f(1.0, SHARED), f(2.0, {"k": 4}), jax.lax.cond(True, run_true, run_false, 3, 1.0)
"""


def test_no_rule_rewrites_what_a_test_expects_to_fail():
    """JAX201 freezing a dict, JAX101 rebinding a cond: the tests expecting the error would fail."""
    src = textwrap.dedent(EXPECTING_RULES)
    options = Options(unsafe_fixes=True)
    result = check_source(src, Options(unsafe_fixes=True, expected_errors=True))
    by_line = {f.line: f for f in result}
    lines = src.splitlines()

    def line_of(text: str, start: int = 0) -> int:
        return next(i for i, line in enumerate(lines, 1) if i > start and text in line)

    in_tests = (line_of("f(1.0, cfg)"), line_of("lambda: f(1.0"), line_of("f(1.0, SHARED)"), line_of("jax.lax.cond"))
    for line in in_tests:
        assert by_line[line].fix is None and "expects this error" in by_line[line].message, line
    by_default = check(src, options)
    assert not {f.line for f in by_default.findings} & set(in_tests)
    assert {f.line for f in by_default.expected} == set(in_tests)
    ordinary = line_of("return f(1.0, SHARED)")
    codes = sorted(f.code for f in result if f.line == ordinary and f.fix is not None)
    # SHARED is frozen for a test that expects the hashing error too: that fix goes; the others stay.
    assert codes == ["JAX101", "JAX201"], codes
    fixed = fix_source(src, options).text
    assert "frozendict({\"k\": 4})" in fixed and 'SHARED = {"k": 2}' in fixed
    assert 'cfg = {"k": 2}' in fixed and "lambda: f(1.0, dict(k=3))" in fixed
    assert fixed.count("jax.lax.cond(True, run_true, run_false, 3, 1.0)") == 1


def test_expected_failure_guard_on_the_fast_path_equals_the_whole_module():
    src = textwrap.dedent(EXPECTING_RULES)
    for options in (Options(), Options(unsafe_fixes=True)):
        narrow = [(f.code, f.span, f.message, f.fix) for f in check(src, options).findings]
        whole = [(f.code, f.span, f.message, f.fix) for f in check(src, options, narrow=False).findings]
        assert narrow == whole


# -- a jitted function defined above the call a test expects to fail (jax tests/debug_info_test.py) --

CONST_ERROR = """
import jax
import jax.numpy as jnp
import unittest
from jax import core

class T(unittest.TestCase):
    def test_concrete_error_because_const(self):
        @jax.jit
        def f():
            assert jnp.add(1, 1) > 0

        {expect}
"""


def test_no_rule_rewrites_a_function_a_test_calls_to_watch_it_fail():
    """The finding is in ``f``'s body; the call that fails sits under the test's ``with`` or ``try``."""
    for expect in (
        "with self.assertRaisesRegex(core.ConcretizationTypeError, 'on these lines'):\n            f()",
        "try:\n            f()\n        except core.ConcretizationTypeError as e:\n            msg = str(e)",
        "self.assertRaises(TypeError, f)",
    ):
        src = CONST_ERROR.format(expect=expect)
        assert findings(src, "JAX402") == [] and len(expected(src, "JAX402")) == 1, expect
        (finding,) = findings(src, "JAX402", expected_errors=True)
        assert finding.fix is None and "expects this error" in finding.message, expect
        assert unchanged(src)
        text = textwrap.dedent(src)
        assert check(text, Options(unsafe_fixes=True)).findings == check(text, Options(unsafe_fixes=True), narrow=False).findings


def test_a_fallback_that_catches_anything_is_not_a_test():
    """``except Exception`` is a fallback, not an expectation: the call is still fixed."""
    src = CONST_ERROR.format(expect="try:\n            f()\n        except Exception:\n            pass")
    (finding,) = findings(src, "JAX402")
    assert finding.fix is not None
    assert not unchanged(src)
