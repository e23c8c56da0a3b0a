"""NumPy functions whose jax.numpy twin computes the same for the same arguments.

JAX310 swaps such a call for its twin where NumPy is handed a tracer; JAX302
asks the same table so that a NumPy call JAX310 answers is not also reported
as a parameter that needs to be static (one bug, one finding). Each name was
run both ways (docs/jax310-behaviour.md; tests/test_jax310.py holds this set
to that table).
"""

from __future__ import annotations

import libcst as cst

NUMPY = "numpy."

TWINS = frozenset(
    {
        "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "exp", "exp2",
        "expm1", "log", "log1p", "log2", "log10", "sqrt", "cbrt", "square", "abs", "absolute", "sign", "power",
        "maximum", "minimum", "clip", "floor", "ceil", "hypot", "logaddexp", "deg2rad", "rad2deg", "radians",
        "degrees", "sum", "prod", "mean", "max", "min", "amax", "amin", "argmax", "argmin", "cumsum", "cumprod",
        "append", "concatenate", "stack", "hstack", "vstack", "expand_dims", "squeeze", "transpose", "flip",
        "roll", "dot", "matmul", "outer", "inner", "einsum", "isnan", "isinf", "isfinite", "logical_and",
        "logical_or", "logical_not", "where", "kron", "trace", "diag", "tril", "triu",
    }
)


def has_twin(qualified: str) -> bool:
    """A NumPy function in `TWINS` (the screen's question, before any call is read)."""
    return qualified.startswith(NUMPY) and qualified[len(NUMPY):] in TWINS


def twin(qualified: str, call: cst.Call) -> str | None:
    """The jax.numpy twin's name for this call of NumPy function `qualified`, or None.

    One-argument ``np.where`` gives indices, whose number depends on the data: no twin serves.
    """
    if not has_twin(qualified):
        return None
    if qualified == "numpy.where" and len(call.args) != 3:
        return None
    return qualified[len(NUMPY):]
