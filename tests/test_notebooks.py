"""Notebooks: cells in as one module, only changed sources spliced back, magics kept."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jaxfix.codemods import engine
from jaxfix.codemods.notebooks import read
from jaxfix.codemods.sourcefile import InputError
from jaxfix.transforms import Options

ROOT = Path(__file__).resolve().parent.parent


def notebook(cells: list[dict], *, html_escapes: bool = False, indent: int = 1) -> str:
    nb = {"cells": cells, "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
    text = json.dumps(nb, indent=indent, ensure_ascii=html_escapes)
    if html_escapes:
        text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return text + "\n"


def code(source) -> dict:
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}


SEED_CELLS = [
    {"cell_type": "markdown", "metadata": {}, "source": ["# Seed <000> & cond\n"]},
    code(["%matplotlib inline\n", "import jax\n", "import jax.numpy as jnp\n", "from jax import jit"]),
    code(
        [
            '@jit\n',
            "def unused(x):\n",
            "    return x\n",
        ]
    ),
    code("import functools\n\n@functools.partial(jit, static_argnames=['N'])\ndef run_true(N, x):\n    return jnp.ones((N,)) * x.sum()\n\n@functools.partial(jit, static_argnames=['N'])\ndef run_false(N, x):\n    return jnp.zeros((N,))"),
    code(["N = 3  # caf\u00e9\n", "x = jnp.ones((2, 2))\n", "!echo shell line\n", "print(jax.lax.cond(True, run_true, run_false, N, x))"]),
    code(["%%time\n", "print(jax.lax.cond(True, run_true, run_false, N, x))"]),
]


def migrate(path: Path) -> engine.FileResult:
    return engine.process_file(path, Options(), fix=True, write=True)


def test_findings_are_placed_by_cell_and_line(tmp_path: Path) -> None:
    path = tmp_path / "seed.ipynb"
    path.write_text(notebook(SEED_CELLS))
    result = engine.process_file(path, Options(), fix=False, write=False)
    assert [result.location(f.line) for f in result.findings] == ["cell 5:4"]


def test_only_the_changed_cell_source_is_rewritten(tmp_path: Path) -> None:
    for html, indent in ((False, 1), (True, 1), (False, 2)):
        path = tmp_path / "seed.ipynb"
        before = notebook(SEED_CELLS, html_escapes=html, indent=indent)
        path.write_text(before)
        assert migrate(path).written
        after = path.read_text()
        expected_cells = json.loads(before)["cells"]
        expected_cells[4]["source"][3] = (
            "print(jax.lax.cond(True, functools.partial(run_true, N), functools.partial(run_false, N), x))"
        )
        assert json.loads(after)["cells"] == expected_cells  # the %%time cell and the ! line are untouched
        expected = notebook(expected_cells, html_escapes=html, indent=indent)
        assert after == expected  # byte for byte: layout, escapes, key order


def test_fixed_notebook_runs(tmp_path: Path) -> None:
    path = tmp_path / "seed.ipynb"
    path.write_text(notebook(SEED_CELLS))
    migrate(path)
    cells = json.loads(path.read_text())["cells"]
    program = "".join(
        "".join(c["source"]) + "\n"
        for c in cells
        if c["cell_type"] == "code" and not "".join(c["source"]).startswith("%%")
    )
    program = "\n".join(line for line in program.splitlines() if not line.lstrip().startswith(("%", "!")))
    run = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, env={**os.environ, "JAX_PLATFORMS": "cpu"}
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[4. 4. 4.]"


def test_broken_notebook_json_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.ipynb"
    path.write_text('{"cells": [\n  {"cell_type": "code", "source": "static_argnums cond"\n')
    result = migrate(path)
    assert result.error is not None and result.error.startswith("broken notebook JSON at line 3")


def test_cell_that_python_cannot_read_is_left_out(tmp_path: Path) -> None:
    cells = [*SEED_CELLS, code(["x = = 1  # not Python\n", "print(jax.lax.cond(True, run_true, run_false, N, x))"])]
    path = tmp_path / "odd.ipynb"
    path.write_text(notebook(cells))
    result = migrate(path)
    assert result.error is None and len(result.applied) == 1
    assert json.loads(path.read_text())["cells"][-1]["source"] == cells[-1]["source"]


def test_reader_finds_every_code_cell_source() -> None:
    nb = read(notebook(SEED_CELLS))
    assert [c.number for c in nb.cells] == [2, 3, 4, 5, 6]
    assert [c.masked for c in nb.cells] == [False, False, False, False, True]
    raw = nb.raw
    for cell in nb.cells:
        assert json.loads(raw[cell.span[0] : cell.span[1]]) in (cell.source, cell.source.splitlines(True))


def test_sources_are_found_past_outputs_of_every_shape() -> None:
    """The scan skips whatever precedes a cell's source: outputs with nested objects,
    escapes, unicode, numbers and literals, at every indentation json writes."""
    outputs = [
        {"output_type": "stream", "name": "stdout", "text": ["a \"quoted\" \\ line\n", "é ✓ \t tab\n"]},
        {"output_type": "execute_result", "data": {"text/plain": ["[1, 2]"], "image/png": "iVBORw0KGgo="},
         "metadata": {"nested": {"deep": [1.5e-3, -2, True, False, None, {}, []]}}, "execution_count": 3},
    ]
    cells = [
        {"cell_type": "code", "execution_count": 3, "metadata": {"tags": ["x"]}, "outputs": outputs,
         "source": ["x = {'a': [1, 2]}  # \"}]\n", "y = 2"]},
        {"cell_type": "markdown", "metadata": {}, "source": "# title"},
        {"outputs": [], "source": "z = 3\n", "cell_type": "code", "metadata": {}, "execution_count": None},
    ]
    for indent in (None, 1, 2, 4):
        for escapes in (False, True):
            nb = read(notebook(cells, indent=indent, html_escapes=escapes))
            assert [c.number for c in nb.cells] == [1, 3]
            for cell in nb.cells:
                value = json.loads(nb.raw[cell.span[0] : cell.span[1]])
                assert ("".join(value) if isinstance(value, list) else value) == cell.source


# -- hostile notebooks (issue 21) -----------------------------------------------------------------

FIXED_CALL = "print(jax.lax.cond(True, functools.partial(run_true, N), functools.partial(run_false, N), x))"


def _fixed_sources(cells: list[dict], tmp_path: Path) -> tuple[engine.FileResult, list]:
    path = tmp_path / "nb.ipynb"
    path.write_text(notebook(cells))
    result = migrate(path)
    return result, [c["source"] for c in json.loads(path.read_text())["cells"]]


def test_a_users_line_that_looks_like_a_cell_separator_stays_in_its_cell(tmp_path: Path) -> None:
    """Cells are mapped by position: a user's `# jaxfix-cell 1` (the old marker) changes nothing."""
    forged = [
        code(["# jaxfix-cell 1\n", "# jaxfix cell 2\n", "y = 1\n"]),
        code(["# jaxfix-cell 3\n", "z = 2"]),
    ]
    cells = [*SEED_CELLS, *forged]
    result, sources = _fixed_sources(cells, tmp_path)
    assert result.error is None and len(result.applied) == 1
    expected = [c["source"] for c in cells]
    expected[4] = [*expected[4][:3], FIXED_CALL]
    assert sources == expected


def test_a_users_comment_that_looks_like_a_masked_magic_stays_a_comment(tmp_path: Path) -> None:
    cells = [*SEED_CELLS[:4], code(["# jaxfix-magic: do not run\n", *SEED_CELLS[4]["source"]])]
    result, sources = _fixed_sources(cells, tmp_path)
    assert result.error is None and len(result.applied) == 1
    assert sources[4][0] == "# jaxfix-magic: do not run\n"
    assert sources[4][3] == "!echo shell line\n" and sources[4][4] == FIXED_CALL


def test_an_import_the_fix_adds_lands_in_the_cell_that_imports(tmp_path: Path) -> None:
    """Lines a fix inserts at a cell boundary stay on the side of the boundary they were put on."""
    before = (ROOT / "golden" / "JAX101" / "import_added_jit_factory" / "before.py").read_text()
    imports, rest = before.split("\n\n", 1)
    cells = [code(imports + "\n"), code(rest)]
    result, sources = _fixed_sources(cells, tmp_path)
    assert result.error is None and result.applied
    after = (ROOT / "golden" / "JAX101" / "import_added_jit_factory" / "after.py").read_text()
    assert "".join(sources[0]) + "\n" + "".join(sources[1]) == after


def test_a_cell_source_that_is_not_text_is_one_clear_error(tmp_path: Path) -> None:
    for source in (["import jax\n", 5], 7, {"a": 1}):
        path = tmp_path / "bad.ipynb"
        path.write_text(notebook([code(source), code("# static_argnums cond jit\n")]))
        result = migrate(path)
        assert result.error == "cell 1: its source is not text (a string or a list of strings)", source


def test_nbformat_3_empty_and_crlf_notebooks(tmp_path: Path) -> None:
    old = tmp_path / "old.ipynb"
    source = "".join(SEED_CELLS[3]["source"])
    old.write_text(json.dumps({"nbformat": 3, "worksheets": [{"cells": [{"cell_type": "code", "input": source}]}]}))
    assert "nbformat 3" in (migrate(old).error or "")
    empty = tmp_path / "empty.ipynb"
    empty.write_bytes(b"")
    assert migrate(empty).error is None and empty.read_bytes() == b""  # nothing a rule could match
    with pytest.raises(InputError, match="an empty file, not a notebook"):
        read("")
    crlf = tmp_path / "crlf.ipynb"
    before = notebook(SEED_CELLS).replace("\n", "\r\n")
    crlf.write_bytes(before.encode())
    result = migrate(crlf)
    assert result.error is None and result.written
    after = crlf.read_bytes().decode()
    old_call = json.dumps("print(jax.lax.cond(True, run_true, run_false, N, x))")
    assert before.count(old_call) == 2  # cell 5 and the %%time cell
    assert after == before.replace(old_call, json.dumps(FIXED_CALL), 1)


def test_a_fix_that_would_cross_a_cell_boundary_is_refused() -> None:
    nb = read(notebook([code("x = 1\n"), code("y = 2\n")]))
    text, _ = nb.python()
    lines = text.splitlines(keepends=True)
    with pytest.raises(InputError, match="boundary of cell 1"):
        nb.with_python("".join(lines[:1] + ["x = 1; y = 2\n"]))


REDEFINED_CELLS = [
    code("import jax.numpy as jnp\nfrom jax import jit"),
    code("def test_arange(x):\n    n = x.shape[0]\n    return jnp.arange(0, n, 1)\n\ntest = jit(test_arange)"),
    code("print(test(jnp.ones(5)))"),
    code("def test_arange(n):\n    return jnp.arange(0, n, 1)\n\ntest = jit(test_arange, static_argnums=0)\nprint(test(7).sum())"),
]


def test_a_function_redefined_in_a_later_cell_is_judged_by_the_uses_that_see_it(tmp_path: Path) -> None:
    """jax#5186 re-staged (a look-alike that runs): the first `jit(test_arange)` wraps the first def,
    which takes the size from `x.shape`; the later cell's def is jitted with `n` static. Each use sees
    the def above it, in execution order: no finding. Swapping the later cell's static_argnums out
    makes it the pitfall, and then the later def is the one reported."""
    path = tmp_path / "rebound.ipynb"
    path.write_text(notebook(REDEFINED_CELLS))
    assert list(engine.process_file(path, Options(), fix=False, write=False).findings) == []
    broken = [*REDEFINED_CELLS[:3], code(REDEFINED_CELLS[3]["source"].replace(", static_argnums=0", ""))]
    path.write_text(notebook(broken))
    result = engine.process_file(path, Options(), fix=False, write=False)
    assert [(f.code, result.location(f.line)) for f in result.findings] == [("JAX301", "cell 4:2")]


def test_a_timed_statement_is_analysed_and_keeps_its_magic_when_fixed(tmp_path: Path) -> None:
    """`%time STMT` runs STMT: its call is seen (QuantEcon's lectures time their calls), and a fix of
    that line is written back behind the same `%time `; `%timeit -n 3 ...` (options) stays a magic."""
    cells = [
        *SEED_CELLS[1:4],
        code(["N = 3\n", "x = jnp.ones((2, 2))\n", "%time print(jax.lax.cond(True, run_true, run_false, N, x))\n",
              "%timeit -n 3 jax.lax.cond(True, run_true, run_false, N, x)"]),
    ]
    path = tmp_path / "timed.ipynb"
    path.write_text(notebook(cells))
    result = engine.process_file(path, Options(), fix=False, write=False)
    assert [result.location(f.line) for f in result.findings] == ["cell 4:3"]
    assert migrate(path).written
    source = json.loads(path.read_text())["cells"][3]["source"]
    assert source[2] == "%time print(jax.lax.cond(True, functools.partial(run_true, N), functools.partial(run_false, N), x))\n"
    assert source[3] == "%timeit -n 3 jax.lax.cond(True, run_true, run_false, N, x)"
