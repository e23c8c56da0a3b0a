"""NumPy and scipy.special functions whose JAX twin computes the same for the same arguments.

JAX310 swaps such a call for its twin (``jax.numpy``'s, ``jax.scipy.special``'s)
where NumPy or SciPy is handed a tracer; JAX302
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


SCIPY_SPECIAL = "scipy.special."

#: scipy.special functions whose jax.scipy.special twin gave the same values (x64, rtol 1e-10) on
#: the arguments of docs/jax310-cases/scipy_special_twins.py, while SciPy fails on a tracer (jax#7958).
SPECIAL_TWINS = frozenset(
    {
        "erf", "erfc", "erfinv", "expit", "logit", "gammaln", "digamma", "xlogy", "xlog1py", "logsumexp",
        "ndtr", "ndtri", "log_ndtr", "i0", "i0e", "i1", "i1e", "betaln", "betainc", "gammainc", "gammaincc",
        "zeta", "polygamma", "entr", "gamma", "factorial", "hyp1f1", "hyp2f1", "spence", "expi", "exp1", "expn",
        "kl_div", "rel_entr", "softmax", "log_softmax",
    }
)


#: NumPy functions that call the argument's own method when it is no ndarray (``np.sum(t)`` is
#: ``t.sum()``): given a tracer itself they work and return one (docs/jax310-behaviour.md, D);
#: given a list holding one they convert the list, and fail.
DELEGATING = frozenset(
    {
        "amax", "amin", "argmax", "argmin", "cumprod", "cumsum", "flip", "max", "mean", "min", "prod",
        "squeeze", "sum", "transpose",
    }
)


def delegates(qualified: str) -> bool:
    """``numpy.sum`` and the others of `DELEGATING`: a tracer as first argument works."""
    return qualified.startswith(NUMPY) and qualified[len(NUMPY):] in DELEGATING


def has_twin(qualified: str) -> bool:
    """A NumPy function in `TWINS` or a scipy.special one in `SPECIAL_TWINS` (the screen's
    question, before any call is read)."""
    if qualified.startswith(NUMPY):
        return qualified[len(NUMPY):] in TWINS
    return qualified.startswith(SCIPY_SPECIAL) and qualified[len(SCIPY_SPECIAL):] in SPECIAL_TWINS


def twin(qualified: str, call: cst.Call) -> str | None:
    """The qualified name of the JAX twin for this call of `qualified`, or None.

    One-argument ``np.where`` gives indices, whose number depends on the data: no twin serves.
    """
    if not has_twin(qualified):
        return None
    if qualified == "numpy.where" and len(call.args) != 3:
        return None
    return f"jax.{qualified}"
