"""jax.jit's staticness rule, simulated: checked against the table of jax-behaviour.md 1k and 1l.

Each row: a signature and static spec, a call shape as jit sees it (what the
primitive passes after a partial or lambda), and whether jax 0.10.2 ran it.
A call "works" when Python binds it and exactly the declared static
parameters are static.
"""

from __future__ import annotations

import libcst as cst
import pytest

from jaxfix.transforms.semantics.jit_signature import BindError, Signature, StaticSpec, bind_call


def sig(src: str) -> Signature:
    fn = cst.parse_module(f"def f{src}: pass\n").body[0]
    assert isinstance(fn, cst.FunctionDef)
    return Signature.from_cst(fn.params)


def works(signature: Signature, spec: StaticSpec, positional, keywords) -> bool:
    """The call binds, every value named like a parameter in upper case is static, the rest not."""
    try:
        bound = bind_call(signature, spec, positional, keywords)
    except BindError:
        return False
    declared = spec.declared_static(signature)
    return all(b.static == (name in declared and b.source == name) for name, b in bound.items())


NAMES = StaticSpec(argnames=("N", "M"))
ROWS = [
    # (label, signature, spec, positional sources, keyword sources, worked in jax 0.10.2)
    ("L1 partial(f, N, M)", "(N, M, x)", NAMES, ["N", "M", "x"], {}, True),
    ("L1 partial(f, N=N, M=M)", "(N, M, x)", NAMES, ["x"], {"N": "N", "M": "M"}, False),
    ("L1 partial(f, N, M=M)", "(N, M, x)", NAMES, ["N", "x"], {"M": "M"}, False),
    ("L2 partial(f, N, M=M)", "(N, x, M)", NAMES, ["N", "x"], {"M": "M"}, True),
    ("L2 partial(f, N=N, M=M)", "(N, x, M)", NAMES, ["x"], {"N": "N", "M": "M"}, False),
    ("L3 partial(f, N=N)", "(x, N, y)", StaticSpec(argnames=("N",)), ["x", "y"], {"N": "N"}, False),
    ("L3 lambda x, y: f(x, N, y)", "(x, N, y)", StaticSpec(argnames=("N",)), ["x", "N", "y"], {}, True),
    ("L3 lambda: f(x, y=y, N=N)", "(x, N, y)", StaticSpec(argnames=("N",)), ["x"], {"y": "y", "N": "N"}, True),
    ("L4 partial(f, N=N)", "(x, *, N)", StaticSpec(argnames=("N",)), ["x"], {"N": "N"}, True),
    ("L4 cond(..., x, N)", "(x, *, N)", StaticSpec(argnames=("N",)), ["x", "N"], {}, False),
    ("L5 partial(f, N=N)", "(x, N=4)", StaticSpec(argnames=("N",)), ["x"], {"N": "N"}, True),
    ("L6 partial(f, N)", "(N, x, /)", StaticSpec(argnums=(0,)), ["N", "x"], {}, True),
    ("L6 partial(f, N=N)", "(N, x, /)", StaticSpec(argnums=(0,)), ["x"], {"N": "N"}, False),
    ("1g partial(t2, N=N)", "(x, N)", StaticSpec(argnames=("N",)), ["x"], {"N": "N"}, True),
    ("1g' argnums=(1,) partial(t3, N=N)", "(x, N)", StaticSpec(argnums=(1,)), ["x"], {"N": "N"}, True),
    ("1g'' argnums=(0,) partial(t4, N=N)", "(N, x)", StaticSpec(argnums=(0,)), ["x"], {"N": "N"}, False),
    ("1g''' argnums=(0,) partial(t4, N)", "(N, x)", StaticSpec(argnums=(0,)), ["N", "x"], {}, True),
    ("1a cond(a, f, g, N, x): N is an operand", "(N, x)", StaticSpec(argnames=("N",)), ["op", "x"], {}, False),
    ("1l f(x, 2)", "(x, N)", StaticSpec(argnums=(-1,)), ["x", "N"], {}, True),
    ("1l f(x, n=2)", "(x, N)", StaticSpec(argnums=(-1,)), ["x"], {"N": "N"}, False),
    ("fori partial(step, N)", "(N, i, c)", StaticSpec(argnames=("N",)), ["N", "i", "c"], {}, True),
    ("fori partial(step, N=N)", "(N, i, c)", StaticSpec(argnames=("N",)), ["i", "c"], {"N": "N"}, False),
    ("fori partial(step_last, N=N)", "(i, c, N)", StaticSpec(argnames=("N",)), ["i", "c"], {"N": "N"}, True),
]


@pytest.mark.parametrize("row", ROWS, ids=[r[0] for r in ROWS])
def test_simulation_matches_jax(row) -> None:
    _, signature, spec, positional, keywords, worked = row
    assert works(sig(signature), spec, positional, keywords) is worked


def test_argnames_inferred_only_when_argnums_missing() -> None:
    s = sig("(N, x, M)")
    assert StaticSpec(argnames=("N",)).resolved(s) == ((0,), ("N",))
    assert StaticSpec(argnums=(0,)).resolved(s) == ((0,), ("N",))
    # Both given: neither is inferred, so N passed positionally is not static.
    assert StaticSpec(argnums=(), argnames=("N",)).resolved(s) == ((), ("N",))
    assert bind_call(s, StaticSpec(argnums=(), argnames=("N",)), ["a", "b", "c"], {})["N"].static is False


def test_positional_only_is_never_inferred_from_argnums() -> None:
    s = sig("(N, x, /)")
    assert StaticSpec(argnums=(0,)).resolved(s) == ((0,), ())


def test_negative_argnums_count_from_each_call() -> None:
    s = sig("(x, n=2)")
    spec = StaticSpec(argnums=(-1,))
    assert spec.declared_static(s) == {"n"}
    assert bind_call(s, spec, ["x"], {})["x"].static is True
    assert bind_call(s, spec, ["x", "n"], {})["n"].static is True


def test_python_binding_errors() -> None:
    s = sig("(N, x)")
    with pytest.raises(BindError, match="multiple values"):
        bind_call(s, StaticSpec(), ["a", "b"], {"N": "c"})
    with pytest.raises(BindError, match="positional"):
        bind_call(s, StaticSpec(), ["a", "b", "c"], {})
    with pytest.raises(BindError, match="missing"):
        bind_call(s, StaticSpec(), ["a"], {})
    with pytest.raises(BindError, match="unexpected"):
        bind_call(s, StaticSpec(), ["a", "b"], {"z": 1})
