"""`jaxfix explain --traceback`: fed the REAL tracebacks of golden before.py programs run under JAX.

Each case runs a golden program with real JAX (tests/goldencases.run_python),
hands its stderr to the triage, and checks the pitfall it names, the user's
line it shows, the rule it finds there and whether a fix is offered. The
command-line forms (a file, `-` for stdin) are run as subprocesses once.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from jaxfix.codemods.triage import frames, origins, recognise, user_frames
from jaxfix.codemods.triage_report import explain_traceback

from .goldencases import ROOT, run_python

REPO = ROOT.parent

#: case -> (the pitfall's title, the rule whose finding is shown, a fix is offered)
CASES = {
    "JAX401/issue6871_make_jaxpr": ("a tracer reached a static argument", "JAX401", True),
    "JAX401/partial_into_jit": ("a tracer reached a static argument", "JAX401", True),
    "JAX401/pmap_unmapped_static": ("a tracer reached a static argument", "JAX401", True),
    "JAX401/outer_jit_of_jitted": ("a tracer reached a static argument", "JAX401", True),
    "JAX401/refuse_keyword_only_make_jaxpr": ("a tracer reached a static argument", "JAX401", False),
    "JAX402/issue4798_minimum_arange": ("a concrete value needed, a tracer given", "JAX402", True),
    "JAX402/issue4449_add_size": ("a tracer used as a shape", "JAX402", True),
    "JAX402/minimum_into_static_param": ("a tracer reached a static argument", "JAX402", True),
    "JAX402/refuse_used_as_array": ("a tracer used as a slice bound", "JAX402", False),
    "JAX403/issue883_device_array": ("an array passed as a static argument", "JAX403", True),
    "JAX403/inline_jit_scalar": ("an array passed as a static argument", "JAX403", True),
    "JAX404/issue648_traced_count_to_shape": ("a tracer reached a static argument", "JAX404", True),
    "JAX404/vmap_into_static": ("a tracer reached a static argument", "JAX404", True),
    "JAX201/tuple_holding_list": ("an unhashable value passed as a static argument", "JAX201", True),
    "JAX101/cond_inside_jit": ("a tracer reached a static argument", "JAX101", True),
}


def _stderr(case: str) -> str:
    run = run_python(ROOT / case / "before.py")
    assert run.returncode != 0, f"{case}/before.py should fail under JAX"
    return run.stderr


@pytest.mark.parametrize("case", sorted(CASES))
def test_real_traceback_is_triaged(case: str) -> None:
    title, code, fixed = CASES[case]
    text = _stderr(case)
    lines, exit_code = explain_traceback(text)
    report = "\n".join(lines)
    assert exit_code == 0, report
    assert lines[0] == f"Pitfall: {title}", report
    mine = user_frames(frames(text, recognise(text).position))  # type: ignore[union-attr]
    assert mine and all(f.path.endswith(f"{case}/before.py") for f in mine)
    assert any(f"Your code: golden/{case}/before.py:{f.line}, in {f.function}" in report for f in mine), report
    findings = [line for line in lines if f": {code} " in line and "before.py:" in line]
    assert findings, report
    if fixed:
        assert "Fix (" in report and "\n-" in report and "\n+" in report, report
    else:
        assert f"No rewrite: {code} reports this one" in report, report


def test_vmap_tracer_is_named_as_vmap() -> None:
    pitfall = recognise(_stderr("JAX404/vmap_into_static"))
    assert pitfall is not None and "vmap maps the value" in pitfall.explanation


def test_tracer_origin_line_from_the_message() -> None:
    """The frame is `jnp.arange(n_actual)` (line 11); the message says line 10 made the tracer: JAX402 is there."""
    text = _stderr("JAX402/issue4798_minimum_arange")
    made = origins(text)
    assert [(Path(o.path).name, o.line) for o in made] == [("before.py", 10)]
    report = "\n".join(explain_traceback(text)[0])
    assert "the value became a tracer on line 10: n_actual = jnp.minimum(n_aval, n)" in report
    assert "+    n_actual = min(n_aval, n)" in report


FROZEN = textwrap.dedent(
    """\
    import dataclasses
    from functools import partial

    import jax
    import jax.numpy as jnp


    @dataclasses.dataclass(frozen=True)
    class Spec:
        axes: list


    @partial(jax.jit, static_argnames="spec")
    def total(x, spec):
        return x.sum(axis=tuple(spec.axes))


    print(total(jnp.ones((2, 2)), spec=Spec([0])))
    """
)


def test_message_spanning_lines_with_a_traceback_inside(tmp_path: Path) -> None:
    """A frozen dataclass holding a list: the hash fails inside __hash__, and JAX's message carries that
    traceback between its prefix and the last `TypeError:` line; the user's frame is the one before it."""
    program = tmp_path / "frozen_list.py"
    program.write_text(FROZEN)
    text = run_python(program).stderr
    assert text.count("Traceback (most recent call last)") >= 1
    pitfall = recognise(text)
    assert pitfall is not None and pitfall.title == "an unhashable value passed as a static argument"
    assert pitfall.evidence.splitlines()[-1] == "TypeError: unhashable type: 'list'"
    lines, exit_code = explain_traceback(text)
    assert exit_code == 0
    assert any(line.endswith("frozen_list.py:18, in <module>") for line in lines), lines


def test_not_a_known_error() -> None:
    lines, exit_code = explain_traceback("Traceback (most recent call last):\n  File \"x.py\", line 1\nKeyError: 'a'\n")
    assert exit_code == 1 and "not an error jaxfix knows" in lines[0]


def test_no_user_frame_says_which_pitfall() -> None:
    text = "jax.errors.ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected: x\n"
    lines, exit_code = explain_traceback(text)
    assert exit_code == 0
    assert lines[0] == "Pitfall: a concrete value needed, a tracer given"
    assert any("No frame of your code" in line for line in lines)
    assert any(line.strip().startswith("option:") for line in lines)


def test_file_without_a_rewrite_says_why(tmp_path: Path) -> None:
    """A real error in a file no rule can follow: the pitfall is named, and why no rewrite applies."""
    program = tmp_path / "opaque.py"
    program.write_text(
        textwrap.dedent(
            """\
            from functools import partial

            import jax
            import jax.numpy as jnp


            @partial(jax.jit, static_argnums=1)
            def pad(x, n):
                return jnp.pad(x, (0, n))


            def widths():
                return {"a": jnp.array(2)}


            print(pad(jnp.ones(2), widths()["a"]))
            """
        )
    )
    text = run_python(program).stderr
    lines, exit_code = explain_traceback(text)
    report = "\n".join(lines)
    assert exit_code == 0
    assert lines[0] == "Pitfall: an array passed as a static argument"
    assert "opaque.py:16, in <module>" in report
    assert "No rewrite applies" in report and "option:" in report


@pytest.mark.parametrize("how", ["file", "stdin"])
def test_command_line(how: str, tmp_path: Path) -> None:
    text = _stderr("JAX402/issue4449_add_size")
    args = [sys.executable, "-m", "jaxfix", "explain", "--traceback"]
    if how == "file":
        pasted = tmp_path / "error.txt"
        pasted.write_text(text)
        proc = subprocess.run([*args, str(pasted)], cwd=REPO, capture_output=True, text=True, timeout=300)
    else:
        proc = subprocess.run([*args, "-"], cwd=REPO, input=text, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("Pitfall: a tracer used as a shape")
    assert ": JAX402 " in proc.stdout and "+    count = arr.size + 1" in proc.stdout


MULTILINE_COND = textwrap.dedent(
    """\
    from functools import partial

    import jax
    import jax.numpy as jnp


    @partial(jax.jit, static_argnames=["N"])
    def run_true(N, x):
        return jnp.ones((N,)) * x


    @partial(jax.jit, static_argnames=["N"])
    def run_false(N, x):
        return jnp.zeros((N,)) * x


    answer = jax.lax.cond(
        True,
        run_true,
        run_false,
        3,
        1.0,
    )
    print(answer)
    """
)


def test_a_finding_on_another_line_of_the_frames_statement_is_found(tmp_path: Path) -> None:
    """Issue 17.7: the frame names the call's first line, the finding is on the branch's line below it."""
    program = tmp_path / "multiline.py"
    program.write_text(MULTILINE_COND)
    text = run_python(program).stderr
    (frame,) = user_frames(frames(text, recognise(text).position))  # type: ignore[union-attr]
    report = "\n".join(explain_traceback(text)[0])
    finding_line = MULTILINE_COND.splitlines().index("    run_true,") + 1
    assert frame.line != finding_line  # the premise: Python points elsewhere in the statement
    assert f"multiline.py:{finding_line}:5: JAX101" in report, report
    assert "No rule finds this pitfall at that line" not in report


def _ipython(text: str, program: Path) -> str:
    """The same error as IPython 8 prints it: `File PATH:LINE, in f` frames, no quotes."""
    out = []
    for line in text.splitlines():
        m = re.match(r'\s*File "(?P<path>[^"]+)", line (?P<line>\d+), in (?P<fn>\S+)', line)
        out.append(f"File {m['path']}:{m['line']}, in {m['fn']}()" if m else line)
    return "\n".join(out)


@pytest.mark.parametrize("shape", ["ipython", "quoted", "indented", "quoted_ipython"])
def test_every_traceback_shape_people_paste(tmp_path: Path, shape: str) -> None:
    """IPython's frames, a paste quoted with `> ` in an issue, or indented as a code block (issue 17.7)."""
    program = tmp_path / "multiline.py"
    program.write_text(MULTILINE_COND)
    text = run_python(program).stderr
    if "ipython" in shape:
        text = _ipython(text, program)
    if "quoted" in shape:
        text = "\n".join(f"> {line}" if line else ">" for line in text.splitlines())
    if shape == "indented":
        text = textwrap.indent(text, "    ")
    lines, exit_code = explain_traceback(text)
    report = "\n".join(lines)
    assert exit_code == 0 and lines[0] == "Pitfall: a tracer reached a static argument", report
    assert "No frame of your code" not in report
    assert ": JAX101 " in report and "Fix (safe)" in report, report


def test_a_notebook_cell_frame_is_named() -> None:
    text = (
        "---------------------------------------------------------------------------\n"
        "ValueError                                Traceback (most recent call last)\n"
        "Cell In[3], line 5\n"
        "      3 N = 3\n"
        "----> 5 answer = jax.lax.cond(True, run_true, run_false, N, x)\n"
        "ValueError: Non-hashable static arguments are not supported. An error occurred while trying to hash an "
        "object of type <class 'jax._src.interpreters.partial_eval.DynamicJaxprTracer'>, JitTracer(~int32[]). "
        "The error was:\nTypeError: unhashable type: 'DynamicJaxprTracer'\n"
    )
    lines, exit_code = explain_traceback(text)
    report = "\n".join(lines)
    assert exit_code == 0 and "No frame of your code" not in report
    assert "Cell In[3], line 5 is a notebook cell" in report, report
