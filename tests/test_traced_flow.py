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
