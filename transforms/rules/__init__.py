"""One folder per rule: its Rule class (documentation in the docstring), its seeds, its repairs.

A rule never imports another rule's folder: what two rules share lives in
`semantics` (what the code means), `repairs` (a strategy both apply) or
`edits` (the text it writes).
"""

from __future__ import annotations

from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.rules.jax001_unused_suppression.rule import UnusedSuppression
from jaxfix.transforms.rules.jax101_static_operand_to_branch.rule import StaticOperandToBranch
from jaxfix.transforms.rules.jax102_branch_jit_into_enclosing_jit.rule import BranchJitIntoEnclosingJit
from jaxfix.transforms.rules.jax103_static_operand_to_plain_branch.rule import StaticOperandToPlainBranch103
from jaxfix.transforms.rules.jax104_recursion_through_cond.rule import RecursionThroughCond104
from jaxfix.transforms.rules.jax201_unhashable_static_arg.rule import UnhashableStaticArg
from jaxfix.transforms.rules.jax202_array_in_static_field.rule import ArrayInStaticField202
from jaxfix.transforms.rules.jax203_unhashable_callable.rule import UnhashableCallable203
from jaxfix.transforms.rules.jax204_data_in_static_nnx_attribute.rule import DataInStaticNnxAttribute204
from jaxfix.transforms.rules.jax301_traced_loop_length.rule import TracedLoopLength
from jaxfix.transforms.rules.jax302_param_needs_static.rule import ParamNeedsStatic302
from jaxfix.transforms.rules.jax304_traced_value_needs_concrete.rule import TracedValueNeedsConcrete304
from jaxfix.transforms.rules.jax305_python_if_on_traced_value.rule import PythonIfOnTracedValue305
from jaxfix.transforms.rules.jax306_pytree_field_needs_static.rule import PytreeFieldNeedsStatic306
from jaxfix.transforms.rules.jax307_chained_comparison_on_traced_value.rule import ChainedComparisonOnTracedValue307
from jaxfix.transforms.rules.jax308_traced_boolean_mask.rule import TracedBooleanMask308
from jaxfix.transforms.rules.jax309_boolean_operator_on_traced_value.rule import BooleanOperatorOnTracedValue309
from jaxfix.transforms.rules.jax310_numpy_on_traced_value.rule import NumpyOnTracedValue310
from jaxfix.transforms.rules.jax401_outer_transform_static.rule import OuterTransformStatic401
from jaxfix.transforms.rules.jax402_static_arithmetic.rule import StaticArithmetic402
from jaxfix.transforms.rules.jax403_array_static_arg.rule import ArrayStatic403
from jaxfix.transforms.rules.jax404_traced_to_static_param.rule import TracedToStatic404
from jaxfix.transforms.rules.jax405_transform_traces_python_value.rule import TransformTracesPythonValue405
from jaxfix.transforms.rules.jax406_unknown_static_argument.rule import UnknownStaticArgument406
from jaxfix.transforms.rules.jax407_traced_nondiff_argument.rule import TracedNondiffArgument407
from jaxfix.transforms.rules.jax408_custom_vjp_argument_needs_python_value.rule import (
    CustomVjpArgumentNeedsPythonValue408,
)

#: Every rule jaxfix has.
ALL_RULES: tuple[type[Rule], ...] = (
    UnusedSuppression,
    StaticOperandToBranch,
    BranchJitIntoEnclosingJit,
    StaticOperandToPlainBranch103,
    RecursionThroughCond104,
    UnhashableStaticArg,
    ArrayInStaticField202,
    UnhashableCallable203,
    DataInStaticNnxAttribute204,
    TracedLoopLength,
    ParamNeedsStatic302,
    TracedValueNeedsConcrete304,
    PythonIfOnTracedValue305,
    PytreeFieldNeedsStatic306,
    ChainedComparisonOnTracedValue307,
    TracedBooleanMask308,
    BooleanOperatorOnTracedValue309,
    NumpyOnTracedValue310,
    OuterTransformStatic401,
    StaticArithmetic402,
    ArrayStatic403,
    TracedToStatic404,
    TransformTracesPythonValue405,
    UnknownStaticArgument406,
    TracedNondiffArgument407,
    CustomVjpArgumentNeedsPythonValue408,
)
