"""``jaxfix server`` driven by a real LSP client over stdio (tests/lsp_client.py), as an editor drives it.

initialize, didOpen -> publishDiagnostics (with the text's version), codeAction
(each fix, suppress on this line, fix all), didChange (debounced: only the
last of quick edits is checked), configuration from the file's
[tool.jaxfix], whole-project analysis, shutdown and exit. What the server
says is held to what the engine says of the same text: the same findings on
the same lines, fixes that write what `fix_source` writes.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from jaxfix.transforms import Options, check_source, fix_source

from .helpers import BRANCHES, GOLDEN, call, env
from .lsp_client import EDITOR_CAPABILITIES, LspClient, apply_text_edits

pytest.importorskip("pygls")

SEED = (GOLDEN / "JAX101" / "seed000_eager" / "before.py").read_text()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "p"\nrequires-python = ">=3.11"\n')
    return root


def start(root: Path, **options: object) -> LspClient:
    client = LspClient([sys.executable, "-m", "jaxfix", "server"], cwd=root, env=env())
    client.initialize(root, options={"debounce": 0.05, **options})
    return client


@pytest.fixture
def server(project: Path):
    client = start(project)
    yield client
    client.close()


def codes_and_lines(diagnostics: list[dict]) -> list[tuple[str, int]]:
    return [(d["code"], d["range"]["start"]["line"] + 1) for d in diagnostics]


def actions(client: LspClient, path: Path, diagnostic: dict, only: list[str] | None = None) -> list[dict]:
    context: dict = {"diagnostics": [diagnostic]}
    if only is not None:
        context["only"] = only
    return client.request(
        "textDocument/codeAction", {"textDocument": {"uri": path.as_uri()}, "range": diagnostic["range"], "context": context}
    )  # type: ignore[return-value]


def edits_of(action: dict, path: Path) -> list[dict]:
    (change,) = [c for c in action["edit"]["documentChanges"] if c["textDocument"]["uri"] == path.as_uri()]
    return change["edits"]


def test_initialize_announces_full_sync_and_both_kinds_of_code_action(project: Path) -> None:
    client = LspClient([sys.executable, "-m", "jaxfix", "server"], cwd=project, env=env())
    try:
        result = client.initialize(project)
        assert result["serverInfo"]["name"] == "jaxfix"
        capabilities = result["capabilities"]
        assert capabilities["textDocumentSync"]["change"] == 1  # Full
        assert set(capabilities["codeActionProvider"]["codeActionKinds"]) == {"quickfix", "source.fixAll.jaxfix"}
        assert capabilities["positionEncoding"] == "utf-16"
        assert client.shutdown() == 0
    finally:
        client.close()


def test_diagnostics_on_open_are_the_engines_findings_with_the_documents_version(server: LspClient, project: Path) -> None:
    path = project / "seed.py"
    path.write_text(SEED)
    server.open(path, SEED, version=7)
    found = server.diagnostics(path, 7)
    assert codes_and_lines(found) == [(f.code, f.line) for f in check_source(SEED)]
    assert all(d["source"] == "jaxfix" and d["severity"] == 2 for d in found)


def test_columns_are_counted_in_utf16_units(server: LspClient, project: Path) -> None:
    """A character outside the BMP before the finding: two UTF-16 units, one character."""
    text = BRANCHES + "\n\n" + 'label = "🙂"; ' + call(3)
    path = project / "wide.py"
    path.write_text(text)
    server.open(path, text)
    (diagnostic,) = server.diagnostics(path, 1)
    (finding,) = check_source(text)
    line = text.splitlines()[finding.line - 1]
    prefix = line[: finding.span.start.column]
    assert diagnostic["range"]["start"] == {"line": finding.line - 1, "character": len(prefix) + prefix.count("🙂")}


def test_the_quick_fix_writes_what_the_engine_writes(server: LspClient, project: Path) -> None:
    path = project / "seed.py"
    server.open(path, SEED)
    (diagnostic,) = server.diagnostics(path, 1)
    fixes = [a for a in actions(server, path, diagnostic) if a["title"].startswith("JAX101")]
    assert [a["kind"] for a in fixes] == ["quickfix"] and fixes[0]["isPreferred"] is True
    assert fixes[0]["edit"]["documentChanges"][0]["textDocument"] == {"uri": path.as_uri(), "version": 1}
    fixed = apply_text_edits(SEED, edits_of(fixes[0], path))
    assert fixed == fix_source(SEED).text
    server.change(path, fixed, 2)
    assert server.diagnostics(path, 2) == []


def test_an_unsafe_fix_is_offered_marked_unsafe_and_not_preferred(server: LspClient, project: Path) -> None:
    case = GOLDEN / "JAX101" / "report_unsafe_by_default"
    text = (case / "before.py").read_text()
    unsafe = [f for f in check_source(text) if f.fix is not None and f.fix.applicability.value == "unsafe"]
    assert unsafe, "the case should hold an unsafe fix"
    path = project / "unsafe.py"
    server.open(path, text)
    diagnostics = server.diagnostics(path, 1)
    offered = [a for d in diagnostics for a in actions(server, path, d) if a["title"].startswith(unsafe[0].code)]
    assert offered and all("(unsafe)" in a["title"] and a["isPreferred"] is False for a in offered)


def test_suppress_on_this_line_silences_the_finding_and_nothing_else(server: LspClient, project: Path) -> None:
    text = BRANCHES + "\n\n" + call(3) + call(4)
    path = project / "two.py"
    server.open(path, text)
    first, second = server.diagnostics(path, 1)
    (suppress,) = [a for a in actions(server, path, first) if a["title"] == "Suppress JAX101 on this line"]
    silenced = apply_text_edits(text, edits_of(suppress, path))
    assert "# jaxfix: ignore[JAX101]" in silenced.splitlines()[first["range"]["start"]["line"]]
    server.change(path, silenced, 2)
    assert codes_and_lines(server.diagnostics(path, 2)) == [("JAX101", second["range"]["start"]["line"] + 1)]


def test_fix_all_applies_what_migrate_would(server: LspClient, project: Path) -> None:
    text = BRANCHES + "\n\n" + call(3) + call(4)
    path = project / "many.py"
    server.open(path, text)
    diagnostics = server.diagnostics(path, 1)
    (offer,) = actions(server, path, diagnostics[0], only=["source.fixAll"])
    assert offer["kind"] == "source.fixAll.jaxfix" and "edit" not in offer  # resolved on demand
    resolved = server.request("codeAction/resolve", offer)
    assert apply_text_edits(text, edits_of(resolved, path)) == fix_source(text).text


def test_fix_all_comes_with_its_edit_for_a_client_that_cannot_resolve(project: Path) -> None:
    capabilities = {**EDITOR_CAPABILITIES, "textDocument": {**EDITOR_CAPABILITIES["textDocument"], "codeAction": {}}}
    client = LspClient([sys.executable, "-m", "jaxfix", "server"], cwd=project, env=env())
    try:
        client.initialize(project, capabilities=capabilities)
        path = project / "seed.py"
        client.open(path, SEED)
        (diagnostic,) = client.diagnostics(path, 1)
        (offer,) = actions(client, path, diagnostic, only=["source.fixAll.jaxfix"])
        (edits,) = offer["edit"]["documentChanges"]
        assert apply_text_edits(SEED, edits["edits"]) == fix_source(SEED).text
    finally:
        client.close()


def test_quick_edits_are_checked_once_after_the_last(project: Path) -> None:
    client = start(project, debounce=0.5)
    try:
        path = project / "typing.py"
        text = BRANCHES + "\n\n"
        client.open(path, text)
        assert client.diagnostics(path, 1) == []
        for version, count in enumerate((2, 3, 4), start=2):
            client.change(path, text + "".join(call(n) for n in range(count)), version)
        assert len(client.diagnostics(path, 4)) == 4
        published = client.pending("textDocument/publishDiagnostics")
        assert [p["version"] for p in published] == []  # versions 2 and 3 were never checked
        assert client.shutdown() == 0
    finally:
        client.close()


def test_settings_come_from_the_files_pyproject(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.jaxfix]\nignore = ["JAX101"]\n')
    client = start(project)
    try:
        path = project / "seed.py"
        client.open(path, SEED)
        assert client.diagnostics(path, 1) == []
        (project / "pyproject.toml").write_text('[tool.jaxfix]\nunsafe_fixes = true\n')
        client.change(path, SEED, 2)
        (problem,) = client.diagnostics(path, 2)
        assert problem["severity"] == 1 and "unknown key `unsafe_fixes`" in problem["message"]
    finally:
        client.close()


def test_a_syntax_error_is_one_error_on_its_line(server: LspClient, project: Path) -> None:
    """In a file a rule may match (one no rule can match is never parsed, as with `jaxfix check`)."""
    path = project / "broken.py"
    text = "import jax\n\n\ndef f(:\n    return jax.jit(g)\n"
    server.open(path, text)
    (problem,) = server.diagnostics(path, 1)
    assert problem["severity"] == 1 and problem["range"]["start"]["line"] == 3 and "syntax error" in problem["message"]


def test_a_module_of_a_project_is_analysed_with_the_project(tmp_path: Path) -> None:
    """golden/multi/imported_branches: the branches are jitted in another module; alone, main.py has no finding."""
    case = GOLDEN / "multi" / "imported_branches"
    root = tmp_path / "tree"
    shutil.copytree(case / "before", root)
    (root / "pyproject.toml").write_text('[project]\nname = "tree"\n')
    expected = tomllib.loads((case / "case.toml").read_text())["findings"]
    assert check_source((root / "pkg" / "main.py").read_text()) == []  # on its own, nothing to find
    client = start(root)
    found = []
    try:
        for path in sorted(root.rglob("*.py")):
            client.open(path, path.read_text())
            for diagnostic in client.diagnostics(path, 1):
                found.append(f"{path.relative_to(root).as_posix()}:{diagnostic['range']['start']['line'] + 1}:{diagnostic['code']}")
    finally:
        client.close()
    assert sorted(found) == sorted(expected)


def test_a_saved_module_is_read_again_by_the_modules_that_import_it(tmp_path: Path) -> None:
    """The caller's finding appears once the imported module, saved, jits its branches with a static N."""
    root = tmp_path / "tree"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "tree"\n')
    (root / "pkg" / "__init__.py").write_text("")
    branches = root / "pkg" / "branches.py"
    plain = BRANCHES.replace('@partial(jax.jit, static_argnames=["N"])\n', "")
    branches.write_text(plain)
    main = root / "pkg" / "main.py"
    main_text = textwrap.dedent(
        """\
        import jax

        from pkg.branches import run_false, run_true

        print(jax.lax.cond(True, run_true, run_false, 3, 1.0))
        """
    )
    main.write_text(main_text)
    client = start(root)
    try:
        client.open(main, main_text)
        assert client.diagnostics(main, 1) == []
        branches.write_text(BRANCHES)
        client.notify("textDocument/didSave", {"textDocument": {"uri": branches.as_uri()}})
        client.change(main, main_text, 2)
        assert codes_and_lines(client.diagnostics(main, 2)) == [("JAX101", 5)]
    finally:
        client.close()


def test_closing_a_document_clears_its_diagnostics(server: LspClient, project: Path) -> None:
    path = project / "seed.py"
    server.open(path, SEED)
    assert server.diagnostics(path, 1)
    server.notify("textDocument/didClose", {"textDocument": {"uri": path.as_uri()}})
    cleared = server.notification("textDocument/publishDiagnostics", lambda p: p["uri"] == path.as_uri())
    assert cleared["diagnostics"] == []


def test_without_pygls_the_command_says_how_to_install_it(tmp_path: Path) -> None:
    program = "import sys\nsys.modules['pygls'] = None\nsys.argv = ['jaxfix', 'server']\nfrom jaxfix.codemods.cli import main\nmain()\n"
    run = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, env=env(), capture_output=True, text=True)
    assert run.returncode == 2
    assert "pip install 'jaxfix[server]'" in run.stderr


def test_options_reach_the_rules_as_migrate_passes_them(project: Path) -> None:
    """unsafe-fixes = true in [tool.jaxfix]: fix all applies unsafe fixes too, as migrate does."""
    case = GOLDEN / "JAX101" / "report_unsafe_by_default"
    text = (case / "before.py").read_text()
    (project / "pyproject.toml").write_text("[tool.jaxfix]\nunsafe-fixes = true\n")
    client = start(project)
    try:
        path = project / "unsafe.py"
        client.open(path, text)
        diagnostics = client.diagnostics(path, 1)
        (offer,) = actions(client, path, diagnostics[0], only=["source.fixAll"])
        resolved = client.request("codeAction/resolve", offer)
        fixed = apply_text_edits(text, edits_of(resolved, path))
        assert fixed == fix_source(text, Options(unsafe_fixes=True)).text != fix_source(text).text
    finally:
        client.close()
