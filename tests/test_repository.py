"""Whole-project analysis: module names from the layout, imports followed to
their definitions, module summaries, and cached results that depend on other files."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from jaxfix.codemods import engine
from jaxfix.codemods.cache import ResultCache
from jaxfix.codemods.discovery import discover
from jaxfix.codemods.project import FileRepository, module_refs, project_root
from jaxfix.codemods.runner import project_files_of
from jaxfix.transforms import Options
from jaxfix.transforms.project.repo_index import summarize
from jaxfix.transforms.project.repository import ModuleRef, absolute, resolve

BRANCHES = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["N"])
def run_true(N, x):
    return x.reshape((1, 4, 5)) * jnp.ones((N, 4, 5))


@partial(jax.jit, static_argnames=["N"])
def run_false(N, x):
    return jnp.zeros((N, 4, 5))
"""

MAIN = """\
import jax
import jax.numpy as jnp

{imports}


def main():
    N = 3
    x = jnp.arange(20.0).reshape(4, 5)
    print(jax.lax.cond(True, {true}, {false}, N, x).sum(axis=0))
"""


def write(root: Path, files: dict[str, str]) -> list[Path]:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return sorted(root / name for name in files)


def repo_of(root: Path, files: dict[str, str]) -> FileRepository:
    return FileRepository(module_refs(write(root, files)))


# -- module names ------------------------------------------------------------------------


def test_module_names_follow_packages_not_folders(tmp_path: Path) -> None:
    paths = write(
        tmp_path,
        {
            "src/pkg/__init__.py": "",
            "src/pkg/sub/__init__.py": "",
            "src/pkg/sub/model.py": "",
            "src/pkg/util.py": "",
            "scripts/train.py": "",
        },
    )
    refs = {ref.name: ref for ref in module_refs(paths)}
    assert set(refs) == {"pkg", "pkg.sub", "pkg.sub.model", "pkg.util", "train"}
    assert refs["pkg.sub"].package and not refs["pkg.sub.model"].package
    assert refs["pkg.util"].path == str((tmp_path / "src/pkg/util.py").resolve())
    assert refs["pkg.util"].root == str((tmp_path / "src").resolve())
    assert refs["train"].root == str((tmp_path / "scripts").resolve())


def test_a_name_under_several_roots_means_the_importers_own(tmp_path: Path) -> None:
    repo = repo_of(
        tmp_path,
        {"a/train.py": "", "a/model.py": "", "b/train.py": "", "b/model.py": "", "c/eval.py": ""},
    )
    train_a = next(ref for ref in repo.modules if ref.path.endswith("a/train.py"))
    assert repo.module("model", train_a).path.endswith("a/model.py")
    assert repo.module("model") is None  # from nowhere in particular: ambiguous
    assert repo.module("eval", train_a).path.endswith("c/eval.py")  # the only one


@pytest.mark.parametrize(
    ("importer", "package", "module", "level", "expected"),
    [
        ("pkg.main", False, "branches", 1, "pkg.branches"),
        ("pkg.main", False, "", 1, "pkg"),
        ("pkg", True, "branches", 1, "pkg.branches"),
        ("pkg.sub.mod", False, "util", 2, "pkg.util"),
        ("pkg.sub.mod", False, "", 2, "pkg"),
        ("pkg.main", False, "x", 3, None),  # above the top package
        ("pkg.main", False, "jax.numpy", 0, "jax.numpy"),
    ],
)
def test_relative_imports_resolve_like_python(importer, package, module, level, expected) -> None:
    ref = ModuleRef(importer, "/x.py", package)
    assert absolute(ref, module, level) == expected


# -- following imports -------------------------------------------------------------------


def test_reexport_through_package_init_reaches_the_defining_module(tmp_path: Path) -> None:
    repo = repo_of(
        tmp_path,
        {
            "pkg/__init__.py": "from .layers import step as public_step\n",
            "pkg/layers/__init__.py": "from .core import step\n",
            "pkg/layers/core.py": BRANCHES.replace("run_true", "step"),
            "pkg/main.py": "",
        },
    )
    main = repo.module("pkg.main")
    found = resolve(repo, main, "pkg", "public_step", 0)
    assert found.module.name == "pkg.layers.core" and found.attribute == "step"
    assert found.jitted(repo).argnames == ("N",)


def test_import_of_a_submodule_is_the_module_not_an_attribute(tmp_path: Path) -> None:
    repo = repo_of(tmp_path, {"pkg/__init__.py": "", "pkg/branches.py": BRANCHES, "pkg/main.py": ""})
    main = repo.module("pkg.main")
    found = resolve(repo, main, "", "branches", 1)  # from . import branches
    assert found.module.name == "pkg.branches" and found.attribute is None


def test_circular_reexports_end(tmp_path: Path) -> None:
    repo = repo_of(
        tmp_path,
        {"a/__init__.py": "from b import f\n", "b/__init__.py": "from a import f\n", "m.py": ""},
    )
    found = resolve(repo, repo.module("m"), "a", "f", 0)
    assert found is not None and found.attribute == "f"  # no definition found, but no loop either


def test_names_outside_the_project_resolve_to_nothing(tmp_path: Path) -> None:
    repo = repo_of(tmp_path, {"pkg/__init__.py": "", "pkg/main.py": ""})
    assert resolve(repo, repo.module("pkg.main"), "jax", "jit", 0) is None


# -- module summaries --------------------------------------------------------------------


def summary_of(text: str):
    return summarize(ast.parse(textwrap.dedent(text)))


def test_summary_reads_every_jit_spelling_through_the_modules_imports() -> None:
    summary = summary_of(
        """
        import functools
        import jax as J
        from jax import jit

        @functools.partial(J.jit, static_argnums=(0,))
        def a(n, x): ...

        @jit
        def b(x, *, k=1): ...

        def _c(n, x): ...
        c = jit(_c, static_argnames="n")

        def _d(n, x): ...
        d = functools.partial(J.jit, static_argnums=0)(_d)
        """
    )
    assert set(summary.jitted) == {"a", "b", "c", "d"}
    assert summary.jitted["a"].argnums == (0,)
    assert summary.jitted["b"].argnums is None and [p.kind for p in summary.jitted["b"].params] == ["pos", "kwonly"]
    assert summary.jitted["c"].argnames == ("n",) and summary.jitted["c"].function == "_c"
    assert summary.jitted["d"].argnums == (0,) and summary.jitted["d"].how == "assignment"


def test_summary_does_not_take_other_jits_for_jax_jit() -> None:
    summary = summary_of(
        """
        from functools import partial
        from flax import nnx
        from mylib import jit

        @partial(nnx.jit, static_argnums=0)
        def a(n, x): ...

        @jit(static_argnums=0)
        def b(n, x): ...
        """
    )
    assert summary.jitted == {}


def test_summary_leaves_out_names_bound_twice_and_unreadable_specs() -> None:
    summary = summary_of(
        """
        import jax
        from functools import partial

        @partial(jax.jit, static_argnums=0)
        def a(n, x): ...
        a = something_else(a)

        @partial(jax.jit, static_argnums=ARGNUMS)
        def b(n, x): ...
        """
    )
    assert "a" not in summary.jitted
    assert summary.jitted["b"].readable is False


# -- runs over a project -----------------------------------------------------------------


def project(tmp_path: Path, true: str = "run_true", imports: str = "from .branches import run_true, run_false") -> list[Path]:
    return write(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname = 'p'\n",
            "pkg/__init__.py": "",
            "pkg/branches.py": BRANCHES,
            "pkg/main.py": MAIN.format(imports=imports, true=true, false="run_false"),
        },
    )


def codes(run: engine.RunResult) -> list[tuple[str, str, int]]:
    return sorted((r.path.name, f.code, f.line) for r in run.files for f in r.findings)


def test_one_file_of_a_project_is_checked_with_the_project_around_it(tmp_path: Path) -> None:
    project(tmp_path)
    main = tmp_path / "pkg" / "main.py"
    alone = engine.run([main], Options(), fix=False, write=False, jobs=1, project_files=[main])
    assert codes(alone) == []  # without the project, the import leads nowhere
    around = engine.run([main], Options(), fix=False, write=False, jobs=1, project_files=project_files_of([main]))
    assert codes(around) == [("main.py", "JAX101", 10)]


def test_project_root_is_the_nearest_marker_shared_by_all_paths(tmp_path: Path) -> None:
    project(tmp_path)
    assert project_root([tmp_path / "pkg" / "main.py", tmp_path / "pkg"]) == tmp_path
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "setup.py").write_text("")
    assert project_root([tmp_path / "pkg", tmp_path / "other"]) is None


def test_imports_never_lead_from_one_project_into_another(tmp_path: Path) -> None:
    write(tmp_path / "defines", {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/branches.py": BRANCHES})
    imports = "from pkg.branches import run_true, run_false"
    main = MAIN.format(imports=imports, true="run_true", false="run_false")
    write(tmp_path / "uses", {"setup.py": "", "app/__init__.py": "", "app/main.py": main})
    files = discover([tmp_path])
    # Run over the folder above both: `pkg.branches` exists once, but in another project.
    run = engine.run(files, Options(), fix=False, write=False, jobs=1, project_files=files)
    assert codes(run) == []
    projects = {ref.project for ref in module_refs(files)}
    assert projects == {str((tmp_path / "defines").resolve()), str((tmp_path / "uses").resolve())}
    # The same file inside the defining project is a caller the rules follow.
    (tmp_path / "defines" / "pkg" / "main.py").write_text(main)
    run = engine.run(discover([tmp_path]), Options(), fix=False, write=False, jobs=1, project_files=discover([tmp_path]))
    assert codes(run) == [("main.py", "JAX101", 10)]


def test_module_import_and_attribute_use_is_followed(tmp_path: Path) -> None:
    files = project(tmp_path, imports="from . import branches as b\nfrom .branches import run_false")
    (tmp_path / "pkg" / "main.py").write_text(
        MAIN.format(imports="import pkg.branches as b", true="b.run_true", false="b.run_false")
    )
    run = engine.run(files, Options(), fix=False, write=False, jobs=1, project_files=files)
    assert codes(run) == [("main.py", "JAX101", 10)]


def test_cached_result_is_recomputed_when_a_module_it_read_changes(tmp_path: Path) -> None:
    files = project(tmp_path)
    cache = ResultCache(tmp_path / "cache", Options())
    first = engine.run(files, Options(), fix=False, write=False, jobs=1, cache=cache, project_files=files)
    assert codes(first) == [("main.py", "JAX101", 10)]

    # branches.py no longer makes N static: main.py's text is unchanged, its result is not.
    (tmp_path / "pkg" / "branches.py").write_text(BRANCHES.replace(', static_argnames=["N"]', ""))
    cache = ResultCache(tmp_path / "cache", Options())
    second = engine.run(files, Options(), fix=False, write=False, jobs=1, cache=cache, project_files=files)
    assert codes(second) == []

    cache = ResultCache(tmp_path / "cache", Options())
    third = engine.run(files, Options(), fix=False, write=False, jobs=1, cache=cache, project_files=files)
    assert codes(third) == [] and third.cache_hits == len([f for f in third.files if f.stage != "filtered"])


def test_fix_in_one_file_that_edits_another_writes_both(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/configs.py": "CONFIG = {'depth': 2}\n",
            "pkg/main.py": """\
                from functools import partial

                import jax
                import jax.numpy as jnp

                from .configs import CONFIG


                @partial(jax.jit, static_argnums=1)
                def step(x, config):
                    return x * config["depth"]


                print(step(jnp.ones(3), CONFIG))
                """,
        },
    )
    files = discover([tmp_path])
    run = engine.run(files, Options(), fix=True, write=True, jobs=1, project_files=files)
    configs = (tmp_path / "pkg" / "configs.py").read_text()
    assert "CONFIG = {'depth': 2}" not in configs and "CONFIG" in configs
    assert {r.path.name for r in run.files if r.changed} >= {"configs.py"}
    again = engine.run(files, Options(), fix=True, write=True, jobs=1, project_files=files)
    assert not again.changed and not again.findings


def test_project_root_without_markers_is_above_the_top_package(tmp_path: Path) -> None:
    write(tmp_path, {"work/pkg/__init__.py": "", "work/pkg/sub/__init__.py": "", "work/pkg/sub/m.py": "", "lone.py": ""})
    assert project_root([tmp_path / "work" / "pkg" / "sub" / "m.py"]) == (tmp_path / "work").resolve()
    assert project_root([tmp_path / "lone.py"]) is None  # a lone script is the whole program


LOCAL_CONFIG = (Path(__file__).resolve().parent.parent / "golden" / "multi" / "local_config_read_elsewhere" / "before" / "pkg")


def local_config_project(tmp_path: Path, report: str) -> list[Path]:
    return write(
        tmp_path,
        {
            "pyproject.toml": "",
            "pkg/__init__.py": "",
            "pkg/main.py": (LOCAL_CONFIG / "main.py").read_text(),
            "pkg/report.py": report,
        },
    )


def messages(run: engine.RunResult) -> list[str]:
    return [f.message for r in run.files for f in r.findings]


def test_a_star_import_of_the_module_hides_its_uses(tmp_path: Path) -> None:
    files = local_config_project(tmp_path, "from pkg.main import *\n\nprint(CONFIG)\n")
    run = engine.run(files, Options(), fix=False, write=False, jobs=1, project_files=files)
    (message,) = messages(run)
    assert "freezing it is not proven: `pkg.report` imports everything from `pkg.main` (line 1)" in message
    assert "with --unsafe-fixes `config` becomes a regular (traced) argument" in message  # what it reads is unknown


def test_cached_result_is_recomputed_when_a_new_module_uses_the_name(tmp_path: Path) -> None:
    files = local_config_project(tmp_path, (LOCAL_CONFIG / "report.py").read_text())
    options = Options()
    run = engine.run(files, options, fix=False, write=False, jobs=1, cache=ResultCache(tmp_path / "c", options), project_files=files)
    assert "freeze it where it is built" in messages(run)[0]

    files += write(tmp_path, {"pkg/tweak.py": "from pkg.main import CONFIG\n\nCONFIG['scale'] = 3.0\n"})
    run = engine.run(files, options, fix=False, write=False, jobs=1, cache=ResultCache(tmp_path / "c", options), project_files=files)
    assert "freezing it is not proven: it is changed after it is built: in `pkg.tweak` (line 3)" in messages(run)[0]


def test_whether_another_module_uses_a_name_is_answered_by_the_first_that_does(tmp_path: Path) -> None:
    """`used_elsewhere` parses importers one by one and stops at the first use: a class of a
    library's core may be imported by hundreds of modules, and each parse costs."""
    from jaxfix.transforms.semantics.importers import here, used_elsewhere

    users = {f"pkg/user{i}.py": "from pkg.model import Config\n\nprint(Config(2))\n" for i in range(4)}
    unused = {f"pkg/near{i}.py": "from pkg.model import Config as _\n" for i in range(3)}  # imports, never reads
    repo = repo_of(tmp_path, {"pkg/__init__.py": "", "pkg/model.py": "class Config:\n    def __init__(self, n):\n        self.n = n\n", **users})
    model = next(ref for ref in repo.modules if ref.name == "pkg.model")
    ctx = repo.analysis(model, Options()).ctx
    parsed: list[str] = []
    analysis = repo.analysis
    repo.analysis = lambda ref, options: parsed.append(ref.name) or analysis(ref, options)  # type: ignore[method-assign]
    assert used_elsewhere(ctx, here(ctx, "Config"))
    assert parsed == ["pkg.user0"]

    repo = repo_of(tmp_path / "b", {"pkg/__init__.py": "", "pkg/model.py": "class Config:\n    pass\n", **unused})
    model = next(ref for ref in repo.modules if ref.name == "pkg.model")
    ctx = repo.analysis(model, Options()).ctx
    assert not used_elsewhere(ctx, here(ctx, "Config"))
    assert used_elsewhere(ctx, here(ctx, "Missing")) is False
