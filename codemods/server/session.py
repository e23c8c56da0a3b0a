"""What the language server keeps between requests: each project's modules, warm, and how to check a buffer.

A buffer is checked by the engine's own per-file analysis (`engine.analyse_in_project`,
the function a pool worker runs), with the settings of the file's
``[tool.jaxfix]`` (read again for every check, so an edited pyproject.toml
counts at once) and, when the file belongs to a project, that project's
modules: discovered once, their summaries and libcst analyses memoized by the
project's `FileRepository` for as long as the server runs. A saved or changed
file is forgotten there and read again when an import leads to it.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

from jaxfix.transforms import Edit, Finding, Options
from jaxfix.transforms.project.repository import ModuleRef
from jaxfix.transforms.project.static_names import StaticNames

from .. import config, engine
from ..discovery import discover, forget_resolved, resolved
from ..project import FileRepository, module_refs, project_root

#: "12:4: syntax error: ..." as the engine words a file's error.
_WHERE = re.compile(r"^(?P<line>\d+):(?P<column>\d+): ")
#: The name a buffer without a file is analysed under.
UNTITLED = Path("untitled.py")


class WarmProject:
    """One project's modules, with the engine's lazy repository over them."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._load()

    def _load(self) -> None:
        forget_resolved()
        self.refs: list[ModuleRef] = module_refs(discover([self.root]))
        self.by_path = {ref.path: ref for ref in self.refs}
        self.repo: FileRepository | None = FileRepository(self.refs) if self.refs else None
        self.static_names: dict[str, StaticNames] = engine.project_static_names(self.refs) if self.refs else {}

    def ref(self, path: Path) -> ModuleRef | None:
        return self.by_path.get(str(resolved(path)))

    def changed(self, path: Path) -> None:
        """The file changed on disk: forget what was read of it (a new or deleted one: look again)."""
        key = str(resolved(path))
        if key not in self.by_path or not path.exists():
            self._load()
            return
        assert self.repo is not None
        self.repo.forget(key)
        self.static_names = engine.project_static_names(self.refs)


@dataclass(frozen=True)
class Checked:
    """One check of one buffer's text."""

    text: str
    findings: tuple[Finding, ...] = ()
    options: Options | None = None
    #: check: None; fix: the fixed text and the edits its fixes make in other files.
    fixed: str | None = None
    remote: tuple[Edit, ...] = ()
    #: What stopped the check (a bad configuration, a syntax error): (1-based line or None, message).
    problem: tuple[int | None, str] | None = None


class Session:
    def __init__(self) -> None:
        self._projects: dict[Path, WarmProject] = {}

    def settings(self, path: Path | None) -> config.Resolved:
        """The file's [tool.jaxfix] (raises config.ConfigError)."""
        ((settings, _),) = config.plan([path if path is not None else Path.cwd()], config.Settings())
        return settings

    def project(self, path: Path | None) -> WarmProject | None:
        """The project the file belongs to (None: a lone script, a buffer without a file)."""
        if path is None:
            return None
        root = project_root([path])
        if root is None:
            return None
        if root not in self._projects:
            self._projects[root] = WarmProject(root)
        return self._projects[root]

    def file_changed(self, path: Path) -> None:
        """Saved, created, deleted or changed on disk by something else."""
        for project in self._projects.values():
            if path.resolve().is_relative_to(project.root):
                project.changed(path)

    def check(self, path: Path | None, text: str, *, fix: bool = False) -> Checked:
        try:
            settings = self.settings(path)
        except config.ConfigError as error:
            return Checked(text, problem=(None, str(error)))
        if path is not None and settings.excludes(path):
            return Checked(text, options=settings.options)
        try:
            data = _encoded(text)
        except (SyntaxError, LookupError, UnicodeEncodeError) as error:
            return Checked(text, options=settings.options, problem=(None, f"cannot encode the text as the file declares: {error}"))
        project = self.project(path)
        ref = project.ref(path) if project is not None and path is not None else None
        task = engine.Task(path or UNTITLED, data, settings.options, fix, ref)
        repo, static_names = (project.repo, project.static_names) if ref is not None else (None, {})  # type: ignore[union-attr]
        result = engine.analyse_in_project(task, repo, static_names)
        if result.error is not None:
            where = _WHERE.match(result.error)
            line = int(where.group("line")) if where else None
            return Checked(text, options=settings.options, problem=(line, result.error[where.end() :] if where else result.error))
        return Checked(
            text,
            result.findings,
            settings.options,
            result.fixed if fix else None,
            tuple(result.remote),
        )


def _encoded(text: str) -> bytes:
    """The bytes the buffer would be saved as: in the encoding its coding cookie declares, else UTF-8."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(text.encode("utf-8", "surrogatepass")).readline)
    return text.encode(encoding)
