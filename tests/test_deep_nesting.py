"""Deeply nested programs are refused cheaply, before libcst (issue 21 item 6).

Each of these made libcst's parser die with SIGSEGV (taking a pool and every
other file's result with it), run for minutes, or sent the analysis into a
recursion that never finished. Now each is one error line naming the file,
fast, and every other file is still checked or fixed; review and explain
--traceback survive them too.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from jaxfix.transforms import SourceError, check_source
from jaxfix.transforms.core.parse_guard import MAX_DEPTH, refuse_deep, tree_depth

from .helpers import GOLDEN, commit_all, env, git, init_repo, jaxfix

SEED = (GOLDEN / "JAX101" / "seed000_eager" / "before.py").read_text()
FIXED = (GOLDEN / "JAX101" / "seed000_eager" / "after.py").read_text()
#: The pre-filter lets a file through only when a rule could match: these words do.
HEAD = "import jax\nfrom functools import partial\n# static_argnums cond jit\n"

HOSTILE = {
    "parens_1400": "x = " + "(" * 1400 + "1" + ")" * 1400 + "\n",
    "sum_10000": "x = " + " + ".join(["1"] * 10000) + "\n",
    "not_50000": "x = " + "not " * 50000 + "1\n",
    "minus_100000": "x = " + "-" * 100000 + "1\n",
    "attribute_100000": "x = a" + ".a" * 100000 + "\n",
    "calls_3000": "x = f" + "()" * 3000 + "\n",
    "elif_10000": "if a:\n    pass\n" + "elif a:\n    pass\n" * 10000,
    "elif_800": "if a:\n    pass\n" + "elif a:\n    pass\n" * 800,  # a KeyError traceback in the analysis
    "elif_500": "if a:\n    pass\n" + "elif a:\n    pass\n" * 500,  # ran for minutes
}


def _inside_main(body: str) -> str:
    """G with the hostile statement in the function the finding is in (so no slice drops it)."""
    indented = "".join("    " + line + "\n" for line in body.splitlines())
    return SEED.replace("    print(answer)\n", "    print(answer)\n" + indented)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_refused_cheaply_with_one_line_and_the_rest_fixed(tmp_path: Path, name: str) -> None:
    (tmp_path / "deep_alone.py").write_text(HEAD + HOSTILE[name])
    (tmp_path / "deep_in_g.py").write_text(_inside_main(HOSTILE[name]))
    (tmp_path / "g.py").write_text(SEED)
    started = time.monotonic()
    result = jaxfix("migrate", "--allow-no-vcs", "--no-cache", "-j", "2", ".", cwd=tmp_path)
    took = time.monotonic() - started
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and "BrokenProcessPool" not in result.stderr
    (line,) = [x for x in result.stderr.splitlines() if x.startswith("deep_in_g.py: error: ")]
    assert "not analysed" in line, line
    # alone, it is refused too, unless Python's own parser read it and the screen found nothing to look at
    alone = [x for x in result.stderr.splitlines() if x.startswith("deep_alone.py: ")]
    assert all("not analysed" in x for x in alone) and (alone or name.startswith("elif_") and "_10000" not in name)
    assert (tmp_path / "g.py").read_text() == FIXED
    assert (tmp_path / "deep_in_g.py").read_text() == _inside_main(HOSTILE[name])  # left exactly as it was
    assert took < 120, f"{took:.0f} s"


def test_a_lone_deep_file_is_checked_in_the_main_process_without_dying(tmp_path: Path) -> None:
    (tmp_path / "deep.py").write_text(HEAD + HOSTILE["parens_1400"])
    result = jaxfix("check", "--no-cache", "deep.py", cwd=tmp_path)
    assert result.returncode == 2 and result.returncode != -11
    assert "deep.py: error: 4:" in result.stderr and "brackets nested more than 200 deep" in result.stderr


def test_review_survives_a_deep_file(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    (repo / "g.py").write_text("x = 1\n")
    commit_all(repo, "base")
    git("checkout", "-q", "-b", "topic", cwd=repo)
    (repo / "g.py").write_text(SEED)
    (repo / "deep.py").write_text(HEAD + HOSTILE["sum_10000"])
    commit_all(repo, "topic")
    result = jaxfix("review", "--base", "main", "--output-format", "text", cwd=repo)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "deep.py: error:" in result.stderr and "g.py:11:30: JAX101" in result.stdout


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (HOSTILE["minus_100000"], "not analysed"),  # refused by the guard
        ("y = a" + ".a" * 390, "too deeply nested"),  # under the guard's limit, over the analysis' recursion
    ],
)
def test_explain_traceback_survives_a_deep_file(tmp_path: Path, body: str, said: str) -> None:
    deep = tmp_path / "deep.py"
    deep.write_text(_inside_main(body))
    pasted = (
        "Traceback (most recent call last):\n"
        f'  File "{deep}", line 11, in main\n'
        "    answer = jax.lax.cond(a, run_true, run_false, N, x)\n"
        "TypeError: Non-hashable static arguments are not supported. An error occurred while trying to hash an "
        "object of type <class 'jax._src.interpreters.partial_eval.DynamicJaxprTracer'>, Traced<~int32[]>. "
        "The error was:\nTypeError: unhashable type: 'DynamicJaxprTracer'\n"
    )
    result = jaxfix("explain", "--traceback", "-", cwd=tmp_path, stdin=pasted)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode in (0, 1)
    assert "deep.py" in result.stdout and said in result.stdout


def test_deep_nesting_is_measured_as_a_parser_builds_it() -> None:
    assert tree_depth("x = " + " + ".join(["1"] * 1000) + "\n")[0] >= 1000
    assert tree_depth("x = a" + ".b" * 700 + "\n")[0] >= 700
    assert tree_depth("x = " + "not " * 700 + "y\n")[0] >= 700
    assert tree_depth("if a:\n    pass\n" + "elif a:\n    pass\n" * 700)[0] >= 700
    # what is wide is not deep: long flat literals, comparison chains, implicitly joined strings
    assert tree_depth("x = [" + ", ".join(["1"] * 50000) + "]\n")[0] < 10
    assert tree_depth("x = " + " < ".join(["a"] * 5000) + "\n")[0] < 10
    assert tree_depth("x = (" + " ".join(['"a"'] * 5000) + ")\n")[0] < 10
    # a sum of products (generated polynomials) is as deep as its chain of +, not its operator count
    polynomial = " + ".join(f"{i}*p**{i % 7}*q**2*r" for i in range(300))
    depth = tree_depth(f"def f(p, q, r):\n    return {polynomial}\n")[0]
    assert 300 <= depth < MAX_DEPTH
    # brackets count in the strings and comments of no one
    assert tree_depth('x = "' + "(" * 5000 + '"  # ' + "[" * 5000 + "\n")[0] < 10


def test_what_the_analysis_completes_is_not_refused() -> None:
    """Just under the limit the analysis still runs; the guard refuses only beyond it."""
    program = _inside_main("y = " + " + ".join(["1"] * 300))
    refuse_deep(program)
    assert [f.code for f in check_source(program)] == ["JAX101"]
    with pytest.raises(SourceError, match="not analysed"):
        refuse_deep(_inside_main("y = " + " + ".join(["1"] * (MAX_DEPTH + 10))))


def test_the_measure_costs_a_fraction_of_libcsts_parse() -> None:
    import libcst

    text = (Path(subprocess.run([sys.executable, "-c", "import jax._src.lax.lax as m; print(m.__file__)"],
                                capture_output=True, text=True, env=env()).stdout.strip())).read_text()
    started = time.perf_counter()
    refuse_deep(text)
    measured = time.perf_counter() - started
    started = time.perf_counter()
    libcst.parse_module(text)
    parsed = time.perf_counter() - started
    assert measured < parsed, (measured, parsed)
