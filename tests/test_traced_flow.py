"""How a tracer is followed through rebindings, helpers, flax's `apply` and default instances.

`traced_values.TracedValues` answers "is this certainly a tracer here?". These tests pin both
sides of each way it follows a value: where it proves a tracer, and the look-alike where it must
not (a proof there would make a rule rewrite working code).
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms import Options, check, parse
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.module import ModuleContext


def _traced_at(text: str, marker: str) -> str | None:
    """The reason the argument of the call `marker(...)` is a tracer, or None."""
    ctx = ModuleContext(text, parse(text), Options(), None, None, None)
    analysis = Analysis(ctx)
    call = next(c for c in ctx.calls if isinstance(c.func, cst.Name) and c.func.value == marker)
    source = analysis.traced.tracer_source(call.args[0].value)
    return source.reason if source is not None else None


REBOUND = """\
import jax


def f(v, flag):
    if flag:
        v = v.reshape(-1)
    seen(v)


jax.jit(f, static_argnums=1)(jax.numpy.ones(3), True)
"""

REBOUND_TO_A_CONSTANT = REBOUND.replace("v = v.reshape(-1)", "v = 0")

REBOUND_IN_A_LOOP = """\
import jax


def f(v, n):
    for _ in range(n):
        v = v.reshape(-1)
    seen(v)


jax.jit(f, static_argnums=1)(jax.numpy.ones(3), 2)
"""


def test_a_name_every_binding_of_which_is_a_tracer_is_one() -> None:
    assert _traced_at(REBOUND, "seen") is not None


def test_one_binding_to_a_python_value_proves_nothing() -> None:
    assert _traced_at(REBOUND_TO_A_CONSTANT, "seen") is None


def test_a_binding_in_a_loop_proves_nothing() -> None:
    """A loop may carry a binding back to its own read: not followed (it may run zero times)."""
    assert _traced_at(REBOUND_IN_A_LOOP, "seen") is None


HELPER = """\
import jax


def center(v):
    return v - v.mean()


@jax.jit
def f(x):
    seen(center(x))


def eager():
    seen_eager(center(3.0))
"""


def test_a_helper_returns_a_tracer_for_the_call_that_passes_one() -> None:
    assert _traced_at(HELPER, "seen") is not None


def test_the_same_helper_called_with_a_python_value_returns_none() -> None:
    """The helper's parameter is read as each call passes it, not as any call may."""
    assert _traced_at(HELPER, "seen_eager") is None


LINEN = """\
import jax
import flax.linen as nn


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        seen(train)
        return nn.Dense(2)(x)


model = MLP()
variables = model.init(jax.random.PRNGKey(0), jax.numpy.ones((1, 3)), False)
{entry}
"""


def test_a_jit_around_apply_traces_what_call_receives() -> None:
    text = LINEN.format(entry="jax.jit(model.apply)(variables, jax.numpy.ones((1, 3)), True)")
    assert "the jit of `model.apply`" in (_traced_at(text, "seen") or "")


def test_a_python_flag_given_to_apply_inside_a_jit_stays_python() -> None:
    text = LINEN.format(
        entry="@jax.jit\ndef step(v, x, key):\n    return model.apply(v, x, True, rngs={'dropout': key})"
    )
    assert _traced_at(text, "seen") is None


def test_apply_keywords_of_its_own_do_not_reach_call() -> None:
    """`rngs=` is `apply`'s: the call still binds, and the step's traced `train` is followed."""
    text = LINEN.format(
        entry="@jax.jit\ndef step(v, x, key, train):\n    return model.apply(v, x, train, rngs={'dropout': key})"
    )
    assert _traced_at(text, "seen") is not None


def test_a_jit_around_apply_with_static_names_is_not_followed() -> None:
    """`static_argnames` of a jit around `apply` holds only for keywords (docs/flax-linen-behaviour.md)."""
    text = LINEN.format(entry="jax.jit(model.apply, static_argnames='train')(variables, jax.numpy.ones((1, 3)), True)")
    assert _traced_at(text, "seen") is None


def test_apply_with_method_runs_another_method() -> None:
    text = LINEN.format(entry="jax.jit(model.apply)(variables, jax.numpy.ones((1, 3)), True, method=MLP.other)")
    assert _traced_at(text, "seen") is None


def test_a_class_that_is_no_linen_module_gets_no_apply_route() -> None:
    text = LINEN.replace("class MLP(nn.Module):", "class MLP(Base):").replace("    @nn.compact\n", "")
    text = "class Base:\n    pass\n\n\n" + text.format(entry="jax.jit(model.apply)(variables, 1.0, True)")
    assert _traced_at(text, "seen") is None


DEFAULT_INSTANCE = """\
import jax
import numpy as np


class Emulator:
    def predict(self, params):
        return np.stack([params[k] for k in ("a", "b")])


def loss(params, emu=Emulator()):
    return emu.predict(params).sum()


{calls}
"""


def test_a_method_of_a_default_instance_left_at_its_default_is_followed() -> None:
    text = DEFAULT_INSTANCE.format(calls='jax.grad(loss)({"a": 1.0, "b": 2.0})')
    assert [f.code for f in check(text, Options()).findings] == ["JAX310"]


def test_a_call_that_passes_another_instance_makes_the_method_unknown() -> None:
    """`loss(p, other)`: `emu` may be any object with a `predict`, so nothing is claimed."""
    calls = 'jax.grad(loss)({"a": 1.0, "b": 2.0})\nloss({"a": 1.0, "b": 2.0}, Other())'
    text = DEFAULT_INSTANCE.format(calls=calls)
    assert [f.code for f in check(text, Options()).findings] == []


TREE_MAPPED = """\
import jax
import jax.numpy as jnp
import numpy as np


def shifted(tree):
    return jax.tree_util.tree_map(lambda x: np.append(x[0], x[:-1]), tree)


{uses}
"""


def test_tree_map_hands_its_function_the_leaves_of_a_traced_tree() -> None:
    text = TREE_MAPPED.format(uses='print(jax.jit(shifted)({"a": jnp.arange(4.0)}))')
    found = check(text, Options()).findings
    assert [(f.code, f.fix.applicability.name if f.fix else None) for f in found] == [("JAX310", "SAFE")]


def test_tree_map_in_a_function_also_run_eagerly_makes_the_swap_unsafe() -> None:
    """Called directly, the lambda got NumPy arrays and returned NumPy's float64."""
    uses = 'print(jax.jit(shifted)({"a": jnp.arange(4.0)}))\nprint(shifted({"a": np.arange(4.0)}))'
    found = check(TREE_MAPPED.format(uses=uses), Options()).findings
    assert [(f.code, f.fix.applicability.name if f.fix else None) for f in found] == [("JAX310", "UNSAFE")]


def test_tree_map_of_concrete_leaves_is_left_alone() -> None:
    assert check(TREE_MAPPED.format(uses='print(shifted({"a": np.arange(4.0)}))'), Options()).findings == []


PASSED_INSTANCE = """\
import jax
import jax.numpy as jnp
import numpy as np


class Base:
    def shifted(self, x):
        return np.append(x[0], x[:-1])


class Child(Base):
    pass


@jax.jit
def run(kernel, x):
    return kernel.shifted(x)


{calls}
"""


def test_a_method_of_the_instance_every_call_passes_is_followed_through_inheritance() -> None:
    text = PASSED_INSTANCE.format(calls="run(Child(), jnp.arange(3.0))")
    assert [f.code for f in check(text, Options()).findings] == ["JAX310"]


def test_instances_of_two_classes_leave_the_method_unknown() -> None:
    text = PASSED_INSTANCE.format(calls="run(Child(), jnp.arange(3.0))\nrun(Other(), jnp.arange(3.0))")
    assert check(text, Options()).findings == []


def test_a_subclass_that_overrides_the_method_is_not_the_base_method() -> None:
    text = PASSED_INSTANCE.replace("    pass\n", "    def shifted(self, x):\n        return x\n").format(
        calls="run(Child(), jnp.arange(3.0))"
    )
    assert check(text, Options()).findings == []


def test_tree_map_hands_leaves_not_the_tree_it_is_given() -> None:
    """``tree_map(lambda x: x[i], (a, b))`` indexes each array, not the tuple (optimistix's L-BFGS):
    the tuple written at the call is no value of `x`."""
    text = """\
import jax
import jax.numpy as jnp


def pick(a, b, ids):
    def step(carry, i):
        first, second = jax.tree_util.tree_map(lambda x: x[i], (a, b))
        return carry + first + second, None

    return jax.lax.scan(step, 0.0, ids)[0]


print(jax.jit(pick)(jnp.arange(3.0), jnp.ones(3), jnp.arange(3)))
"""
    assert check(text, Options()).findings == []


UNPACKED_CARRY = """\
import jax
from typing import NamedTuple


class State(NamedTuple):
    step: jax.Array
    done: jax.Array


def cond(inputs):
    _, state = inputs
    seen(state.done)
    return state.step < 3


def body(inputs):
    x, state = inputs
    seen(x)
    return x + 1, State(state.step + 1, state.done)


def helper(v):
    return v * 2, v.shape


def scan_body(carry, x):
    doubled, shape = helper(carry)
    seen(doubled)
    rows, columns = x.shape
    seen(rows)
    leaves, treedef = jax.tree_util.tree_flatten(carry)
    seen(treedef)
    seen(shape)
    return carry, x


jax.lax.while_loop(cond, body, (jax.numpy.ones(2), State(jax.numpy.asarray(0), jax.numpy.asarray(False))))
jax.lax.scan(scan_body, jax.numpy.ones(2), jax.numpy.ones((3, 2)))
"""


def _traced_at_each(text: str, marker: str) -> list[str | None]:
    """The reason each argument of a call `marker(...)` is a tracer, or None, in source order."""
    ctx = ModuleContext(text, parse(text), Options(), None, None, None)
    analysis = Analysis(ctx)
    calls = [c for c in ctx.calls if isinstance(c.func, cst.Name) and c.func.value == marker]
    found = [analysis.traced.tracer_source(c.args[0].value) for c in calls]
    return [s.reason if s is not None else None for s in found]


def test_names_unpacked_from_a_traced_value_are_traced_where_every_part_is() -> None:
    done, x, doubled, rows, treedef, shape = _traced_at_each(UNPACKED_CARRY, "seen")
    assert done is not None and "inputs" in done  # a NamedTuple field of the carry's element
    assert x is not None
    assert doubled is not None  # the element every return of the helper writes there
    # Look-alikes: metadata, a tree's structure, a helper's shape element are Python values.
    assert rows is None
    assert treedef is None
    assert shape is None


READ_IN_A_LOOP = """\
import jax


def f(a, n):
    a = jax.numpy.asarray(a)
    for _ in range(n):
        seen(a)


jax.jit(f, static_argnums=1)(jax.numpy.ones(3), 2)
"""


def test_a_read_in_a_loop_sees_bindings_made_before_it() -> None:
    """Every binding of `a` is outside the loop: the read inside it sees one of them."""
    assert _traced_at(READ_IN_A_LOOP, "seen") is not None


PYTREE_FIELDS = """\
import jax
import numpy as np
from flax import struct


@struct.dataclass
class State:
    obs: jax.Array
    done: jax.Array
    steps: int = struct.field(pytree_node=False, default=3)


def features(state: State):
    seen(state.obs)
    seen(state.steps)
    seen(state.obs[0])
    return np.concatenate([state.obs, state.obs ** 2])


def finished(state: State):
    return not state.done


@jax.jit
def step(state):
    return features(state), finished(state)
"""


def _sources_at_each(text: str, marker: str):
    ctx = ModuleContext(text, parse(text), Options(), None, None, None)
    analysis = Analysis(ctx)
    calls = [c for c in ctx.calls if isinstance(c.func, cst.Name) and c.func.value == marker]
    return analysis, [c.args[0].value for c in calls]


def test_a_data_field_of_a_traced_pytree_is_a_tracer_for_the_rules_that_use_it_as_data() -> None:
    analysis, (obs, steps, row) = _sources_at_each(PYTREE_FIELDS, "seen")
    traced = analysis.traced
    assert traced.value_source(obs) is not None
    # As read, the field is JAX306's where Python needs its value: the other rules do not see it.
    assert traced.source(obs) is None
    # A static field is part of the tree's structure: a Python value.
    assert traced.value_source(steps) is None
    # What JAX computes from the field is a tracer no static declaration would make concrete.
    assert traced.source(row) is not None


def test_one_finding_per_field_read_as_a_bool() -> None:
    codes = [f.code for f in check(PYTREE_FIELDS.replace("    seen(state.obs)\n    seen(state.steps)\n    seen(state.obs[0])\n", ""), Options()).findings]
    assert codes == ["JAX310", "JAX306"]


ACCUMULATED = """\
import jax


@jax.jit
def f(xs):
    total = 0.0
    for i in range(3):
        total += xs[i]
        seen(total)
    seen(total)
    count = 0
    for i in range(3):
        if i > 1:
            count += xs[i]
    seen(count)
    empty = 0
    for i in range(0):
        empty += xs[i]
    seen(empty)
    return total
"""


def test_an_accumulator_is_traced_after_a_loop_that_surely_runs_its_addition() -> None:
    inside, after, conditional, never = _traced_at_each(ACCUMULATED, "seen")
    assert inside is not None and after is not None
    # Look-alikes: an addition under an `if`, a loop that never runs: the 0 may be what is read.
    assert conditional is None
    assert never is None


FANNED_OUT = """\
import jax


def helper(v):
    return v * 2


@jax.jit
def f(x):
    a = helper(x)
    b = a + a + a + a
    c = b * b - b / b
    seen(c + c + c)
    return x
"""


def test_a_helper_call_is_read_once_however_many_ways_lead_to_it() -> None:
    """`c` reaches `helper(x)` along 48 paths; read afresh on each, a module of many such
    expressions stalled the false-positive run (pyscf-ipu's dft.py). Remembered per call, frames
    and the bindings set aside, the helper's returns are read once."""
    ctx = ModuleContext(FANNED_OUT, parse(FANNED_OUT), Options(), None, None, None)
    traced = Analysis(ctx).traced
    readings: list[object] = []
    original = traced._returned_uncached

    def counted(*args, **kwargs):
        readings.append(args[1])
        return original(*args, **kwargs)

    traced._returned_uncached = counted  # type: ignore[method-assign]
    call = next(c for c in ctx.calls if isinstance(c.func, cst.Name) and c.func.value == "seen")
    assert traced.tracer_source(call.args[0].value) is not None
    assert len(readings) == 1
