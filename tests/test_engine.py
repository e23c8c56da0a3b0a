"""The engine: cache, process pool, discovery, stdin."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jaxfix.codemods import engine
from jaxfix.codemods.cache import ResultCache
from jaxfix.codemods.discovery import discover
from jaxfix.transforms import Options

ROOT = Path(__file__).resolve().parent.parent
BEFORES = sorted((ROOT / "golden").glob("*/*/before.py"))
SEED = (ROOT / "golden" / "JAX101" / "seed000_eager" / "before.py").read_text()
FIXED = (ROOT / "golden" / "JAX101" / "seed000_eager" / "after.py").read_text()


def summary(run: engine.RunResult) -> list:
    return [(r.path.name, r.fixed, [(f.code, f.line, f.message) for f in r.findings], len(r.applied)) for r in run.files]


def test_cache_serves_the_same_results(tmp_path: Path) -> None:
    cold = engine.run(BEFORES, Options(), fix=True, write=False, jobs=1, cache=ResultCache(tmp_path, Options()))
    assert not any(r.stage == "cached" for r in cold.files)
    warm_cache = ResultCache(tmp_path, Options())
    warm = engine.run(BEFORES, Options(), fix=True, write=False, jobs=1, cache=warm_cache)
    assert all(r.stage in ("cached", "filtered") for r in warm.files)
    assert warm_cache.hits == sum(1 for r in cold.files if r.stage != "filtered")
    assert summary(warm) == summary(cold)
    assert (tmp_path / ".gitignore").read_text().strip().endswith("*")


def test_cache_key_follows_content_options_and_mode(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path, Options())
    data = SEED.encode()
    assert cache.key(data, "python", True) != cache.key(data + b"\n", "python", True)
    assert cache.key(data, "python", True) != cache.key(data, "python", False)
    assert cache.key(data, "python", True) != ResultCache(tmp_path, Options(unsafe_fixes=True)).key(data, "python", True)


def test_corrupt_cache_entry_is_a_miss(tmp_path: Path) -> None:
    path = tmp_path / "seed.py"
    path.write_text(SEED)
    cache_dir = tmp_path / "cache"
    engine.run([path], Options(), fix=False, write=False, jobs=1, cache=ResultCache(cache_dir, Options()))
    for entry in cache_dir.rglob("*.json"):
        entry.write_text("{not json")
    again = engine.run([path], Options(), fix=False, write=False, jobs=1, cache=ResultCache(cache_dir, Options()))
    assert again.files[0].stage == "parsed" and len(again.files[0].findings) == 1


def test_pool_gives_what_one_process_gives() -> None:
    one = engine.run(BEFORES, Options(), fix=True, write=False, jobs=1)
    two = engine.run(BEFORES, Options(), fix=True, write=False, jobs=2)
    assert summary(one) == summary(two)


def test_unreadable_inputs_leave_the_rest(tmp_path: Path) -> None:
    good = tmp_path / "good.py"
    good.write_text(SEED)
    folder_named_py = tmp_path / "dir.py"
    folder_named_py.mkdir()
    run = engine.run([tmp_path / "gone.py", folder_named_py, good], Options(), fix=True, write=True, jobs=2)
    assert [r.error for r in run.files] == ["no such file", "is a directory", None]
    assert good.read_text() == FIXED
    assert run.exit_code(pending_changes=False) == 2


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def test_discovery_honours_gitignore_and_skips_envs_and_outside_links(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    (repo / "pkg" / "a.py").write_text("x = 1\n")
    (repo / "pkg" / "nb.ipynb").write_text("{}")
    (repo / "generated").mkdir()
    (repo / "generated" / "g.py").write_text("x = 1\n")
    (repo / ".gitignore").write_text("generated/\n")
    (repo / "env").mkdir()
    (repo / "env" / "pyvenv.cfg").write_text("")
    (repo / "env" / "lib.py").write_text("x = 1\n")
    outside = tmp_path / "outside.py"
    outside.write_text("x = 1\n")
    (repo / "pkg" / "link.py").symlink_to(outside)
    (repo / "linkdir").symlink_to(tmp_path)
    git("init", "-q", cwd=repo)
    found = sorted(p.relative_to(repo).as_posix() for p in discover([repo]))
    assert found == ["pkg/a.py", "pkg/nb.ipynb"]


def test_discovery_without_git(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("")
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "a.py").write_text("")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "b.py").write_text("")
    assert [p.name for p in discover([tmp_path])] == ["a.py"]


def jaxfix(*args: str, stdin: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jaxfix", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def test_stdin_to_stdout(tmp_path: Path) -> None:
    fixed = jaxfix("migrate", "-", stdin=SEED, cwd=tmp_path)
    assert fixed.returncode == 0 and fixed.stdout == FIXED
    checked = jaxfix("check", "--output-format", "json", "-", stdin=SEED, cwd=tmp_path)
    assert checked.returncode == 1
    (finding,) = json.loads(checked.stdout)["findings"]
    assert finding["filename"] == "-" and finding["location"]["line"] == 11
    mixed = jaxfix("check", "-", "x.py", stdin=SEED, cwd=tmp_path)
    assert mixed.returncode == 2


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_cli_uses_the_cache_dir_it_is_given(tmp_path: Path, jobs: str) -> None:
    (tmp_path / "a.py").write_text(SEED)
    (tmp_path / "b.py").write_text(SEED.replace("N = 3", "N = 2"))
    first = jaxfix("check", "-j", jobs, "--cache-dir", "c", "a.py", "b.py", stdin="", cwd=tmp_path)
    again = jaxfix("check", "-j", jobs, "--cache-dir", "c", "a.py", "b.py", stdin="", cwd=tmp_path)
    assert first.stdout == again.stdout and first.returncode == again.returncode == 1
    assert len(list((tmp_path / "c").rglob("*.json"))) == 2
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_default_cache_is_the_users_not_the_projects(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(SEED)
    env_home = tmp_path / "home"
    run = subprocess.run(
        [sys.executable, "-m", "jaxfix", "check", "a.py"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**{k: v for k, v in os.environ.items() if k not in ("JAXFIX_CACHE_DIR", "XDG_CACHE_HOME")},
             "PYTHONPATH": str(ROOT), "HOME": str(env_home)},
    )
    assert run.returncode == 1
    assert list((env_home / ".cache" / "jaxfix").rglob("*.json"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py", "home"]


def test_resolved_is_path_resolve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each folder resolved once per run must give what resolving every file gives."""
    from jaxfix.codemods.discovery import forget_resolved, resolved

    real = tmp_path / "real"
    (real / "pkg").mkdir(parents=True)
    (real / "pkg" / "a.py").write_text("x = 1\n")
    (tmp_path / "linked").symlink_to(real, target_is_directory=True)
    (real / "alias.py").symlink_to(real / "pkg" / "a.py")
    forget_resolved()
    for path in [
        real / "pkg" / "a.py",
        tmp_path / "linked" / "pkg" / "a.py",  # through a linked folder
        real / "alias.py",  # a linked file
        real / "pkg" / ".." / "alias.py",
        real / "missing.py",
        Path("."),
        Path("relative.py"),
    ]:
        assert resolved(path) == path.resolve(), path
    monkeypatch.chdir(real)  # a relative folder means another folder once the working folder changes
    assert resolved(Path("relative.py")) == real / "relative.py"


def test_a_shared_haystack_answers_as_the_text_does() -> None:
    """The pre-filter searches each word once per file; every rule gets the same answer."""
    from jaxfix.transforms import RULES
    from jaxfix.transforms.core.rule import STATIC_JITTED, Haystack

    for path in BEFORES[:20]:
        data = path.read_bytes()
        shared, text = Haystack(data), data.decode()
        for imports in (False, True):
            for rule in RULES.values():
                expected = all(
                    any(w in text for w in group if w != STATIC_JITTED) or (STATIC_JITTED in group and imports)
                    for group in rule.required
                )
                assert rule.may_match(shared, imports) == rule.may_match(text, imports) == expected
                asked: list[bool] = []

                def lazily(answer: bool = imports) -> bool:
                    asked.append(answer)
                    return answer

                assert rule.may_match(shared, lazily) == expected
                # Asked only where a group's own words are all absent.
                words_decide = all(any(w in text for w in g if w != STATIC_JITTED) for g in rule.required)
                assert not (asked and words_decide)
