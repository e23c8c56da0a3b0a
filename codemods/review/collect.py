"""The findings a pull-request review reports: those on lines the branch changed.

Only regular files inside the repository are read: a changed path that is a
symbolic link, or that resolves outside the checkout, is passed by, so a
pull request cannot point the bot at files elsewhere on the runner (nor get
their text into a comment). Review never writes a file.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .. import engine
from ..config import Resolved
from ..discovery import discover
from .changed_lines import changed_lines, head_commit, merge_base, repository_root
from .suggestions import ReviewComment, comment_for


@dataclass
class ReviewResult:
    root: Path
    base_commit: str
    head: str
    #: Results whose findings are only those on changed lines.
    run: engine.RunResult = field(default_factory=engine.RunResult)
    comments: list[ReviewComment] = field(default_factory=list)
    #: Changed files passed by because they are links or lie outside the checkout.
    refused: list[str] = field(default_factory=list)
    #: Files whose own [tool.jaxfix] settings allow unsafe fixes.
    unsafe_paths: set[Path] = field(default_factory=set)


def repository_path(root: Path, path: Path) -> str | None:
    """The path relative to the repository (posix), without following a link at its end."""
    parent = Path(os.path.realpath(path.absolute().parent))
    try:
        return (parent / path.name).relative_to(root).as_posix()
    except ValueError:
        return None


def collect(groups: Sequence[tuple[Resolved, list[Path]]], base: str, cwd: Path) -> ReviewResult:
    root = repository_root(cwd)
    base_commit = merge_base(root, base)
    changed = changed_lines(root, base_commit)
    review = ReviewResult(root, base_commit, head_commit(root))
    for settings, paths in groups:
        candidates: list[tuple[Path, str]] = []
        for path in discover(paths):
            relative = repository_path(root, path)
            if relative is None or relative not in changed or path.suffix != ".py" or settings.excludes(path):
                continue
            if path.is_symlink() or not path.resolve().is_relative_to(root):
                review.refused.append(relative)
                continue
            candidates.append((path, relative))
        checked = engine.run(
            [p for p, _ in candidates],
            settings.options,
            fix=False,
            write=False,
            project_files=[p for p in discover([root]) if p.resolve().is_relative_to(root)],
            options_for=settings.options_for if settings.per_file_ignores else None,
        )
        relative_of = {path: relative for path, relative in candidates}
        if settings.options.unsafe_fixes:
            review.unsafe_paths.update(relative_of)
        for result in checked.files:
            relative = relative_of[result.path]
            lines = changed[relative]
            kept = []
            for finding in result.findings:
                comment = comment_for(
                    relative, result.original, finding, lines, unsafe_fixes=settings.options.unsafe_fixes
                )
                if comment is not None:
                    kept.append(finding)
                    review.comments.append(comment)
            review.run.files.append(dataclasses.replace(result, findings=tuple(kept)))
    return review
