"""A learning-rate schedule handed to an optax optimizer: optax calls it with the step count.

Measured (docs/optax-behaviour.md, "What optax hands a learning-rate schedule"): the 25 public
optax functions named here take a schedule as their first argument, ``learning_rate``, and their
``update`` calls it with the state's count, a jax array even eagerly; under jit the count is a
tracer, and NumPy on it fails (netket#908: ``np.cos`` in a warm-restart schedule). The optimizer's
``update`` is seldom called where the module can follow it (an attribute of a model object, handed
to a jitted step as a static argument), so the evidence that it runs traced is any ``.update`` the
module calls in a jitted def or hands to a jitted call: a schedule is traced only with it.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.static_slots import jitted_call

#: The synthetic layer a schedule's route ends in: optax calls it, traced when `update` is.
OPTAX_SCHEDULE = "optax.schedule"

#: optax functions whose first parameter, ``learning_rate``, takes a schedule (measured).
SCHEDULED = frozenset(
    {
        "adabelief", "adadelta", "adafactor", "adagrad", "adam", "adamax", "adamaxw", "adamw", "adan",
        "amsgrad", "fromage", "lamb", "lars", "lion", "noisy_sgd", "novograd", "optimistic_adam_v2",
        "optimistic_gradient_descent", "radam", "rmsprop", "scale_by_learning_rate", "sgd", "sign_sgd",
        "signum", "yogi",
    }
)  # fmt: skip


def schedule_slot(ctx: ModuleContext, call: cst.Call, expr: cst.BaseExpression) -> bool:
    """`expr` is what ``optax.sgd(...)`` and kin take as their learning rate."""
    qualified = ctx.names.qualified_name(call.func) or ""
    module, _, name = qualified.rpartition(".")
    if not module.startswith("optax") or name not in SCHEDULED:
        return False
    positional = [a for a in call.args if a.keyword is None]
    first = positional[0] if positional else next((a for a in call.args if a.keyword and a.keyword.value == "learning_rate"), None)
    return first is not None and not first.star and first.value is expr


#: Methods that run an optimizer's update: optax's own, and flax's ``TrainState.apply_gradients``
#: (which calls ``tx.update``; docs/optax-behaviour.md, "flax's TrainState.apply_gradients").
_UPDATES = ("update", "apply_gradients")


def traced_update(ctx: ModuleContext, jitted: Callable[[cst.FunctionDef], bool] | None = None) -> cst.Attribute | None:
    """An ``x.update`` (or a TrainState's ``x.apply_gradients``) the module calls in a jitted def
    (its decorator, or `jitted`: ``train_step = jax.jit(train_step)``), or an ``x.update`` it hands
    to a jitted call: the evidence that an optimizer's update runs traced."""
    for attr in (a for name in _UPDATES for a in ctx.attributes_named(name)):
        parent = ctx.parent(attr)
        if isinstance(parent, cst.Call) and parent.func is attr:
            fn = ctx.enclosing_function(attr)
            if isinstance(fn, cst.FunctionDef) and (function_info(ctx, fn).jit is not None or jitted is not None and jitted(fn)):
                return attr
        elif isinstance(parent, cst.Arg) and parent.value is attr and attr.attr.value == "update":
            call = ctx.parent(parent)
            if isinstance(call, cst.Call) and jitted_call(ctx, call) is not None:
                return attr
    return None
