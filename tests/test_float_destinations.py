"""JAX304 drops ``float()`` of a tracer whose value goes only where an array serves: into a dict
that only the function returns through a jit (gwpopulation#83's statistics), through ``sum`` and
``+=``; never into a dict a caller also holds, which would see an array after the call."""

from __future__ import annotations

import textwrap

from jaxfix.transforms import Options, check, fix_source

from .helpers import run_in_process

HEAD = "import jax\nimport jax.numpy as jnp\n\n\n"


def _fixes(body: str) -> list[bool]:
    found = check(HEAD + textwrap.dedent(body), Options(unsafe_fixes=True)).findings
    return [f.fix is not None for f in found if f.code == "JAX304"]


def test_floats_stored_in_a_dict_the_jit_returns_are_dropped_and_run() -> None:
    body = """\
        @jax.jit
        def stats(x):
            out = {}
            total = float(sum(jnp.abs(x) / 2.0))
            out["mean"] = float(jnp.mean(x))
            total += 1.0
            out["total"] = float(total)
            return out


        RESULT = stats(jnp.arange(4.0))
        MEAN, TOTAL = RESULT["mean"], RESULT["total"]
        """
    assert _fixes(body) and all(_fixes(body))
    fixed = fix_source(HEAD + textwrap.dedent(body), Options(unsafe_fixes=True)).text
    assert "float(" not in fixed
    ran = run_in_process(fixed)
    assert ran["MEAN"].tolist() == 1.5 and ran["TOTAL"].tolist() == 4.0


def test_a_dict_a_caller_reads_after_the_call_keeps_the_conversion() -> None:
    """`fill` stores into the dict it is given: `run` hands it a dict of its own that it returns
    through the jit (an array serves there), but the module also calls it on `kept`, which it reads
    after the call as a Python float: the conversion is needed there, so nothing is dropped."""
    body = """\
        def fill(stats, x):
            stats["mean"] = float(jnp.mean(x))


        @jax.jit
        def run(x):
            out = {}
            fill(out, x)
            return out


        kept = {}
        fill(kept, jnp.arange(4.0))
        print(kept["mean"].is_integer(), run(jnp.arange(4.0)))
        """
    assert _fixes(body) == [False]
    assert _fixes(body.replace('kept["mean"].is_integer(), ', "")) == [True]
