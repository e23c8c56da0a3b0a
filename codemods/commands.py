"""Every rule as a LibCST codemod command, for people who run codemods with ``libcst.tool``.

    python -m libcst.tool codemod --no-format commands.StaticOperandToBranch PATH
    python -m libcst.tool codemod --no-format -x codemods.commands.JAX101 PATH

The first form needs a ``.libcst.codemod.yaml`` whose ``modules:`` lists
``codemods`` (the one at this repository's root does); the second, with
``-x``, needs only ``codemods`` importable. ``--no-format``: libcst's default
formatter is black, which would restyle whole files, and the rules' edits
already match the code around them.

Each command is the engine, not a second copy of the rule: it runs
`codemods.engine` on the file as ``jaxfix migrate --select CODE`` does (the
file's project found the same way, so imports are followed the same way) and
hands libcst the rewritten text. What libcst's per-file model cannot do is
refused, not approximated: a fix that must also change another file (a
config defined in another module) is left for ``jaxfix migrate``, and the
file is skipped with a warning; so is a notebook, which libcst does not read.
Findings without an applicable fix become libcst warnings.
"""

from __future__ import annotations

import argparse
from functools import lru_cache
from pathlib import Path
from typing import ClassVar

import libcst as cst
from libcst.codemod import CodemodCommand, CodemodContext, SkipFile

from jaxfix.transforms import RULES, Options, SourceError, fix_source

from . import engine
from .discovery import discover
from .project import project_root


class JaxfixCommand(CodemodCommand):
    """Apply the fixes of the rules in `CODES` (all of them when empty) to one module."""

    #: The rule codes this command applies; empty: every rule.
    CODES: ClassVar[tuple[str, ...]] = ()
    DESCRIPTION = "Apply every jaxfix rule's fixes (as `jaxfix migrate`)."

    def __init__(self, context: CodemodContext, unsafe_fixes: bool = False) -> None:
        super().__init__(context)
        self.options = Options(select=frozenset(self.CODES) or None, unsafe_fixes=unsafe_fixes)

    @staticmethod
    def add_args(arg_parser: argparse.ArgumentParser) -> None:
        arg_parser.add_argument(
            "--unsafe-fixes",
            action="store_true",
            default=False,
            help="also apply fixes jaxfix marks unsafe (as `jaxfix migrate --unsafe-fixes`)",
        )

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        filename = self.context.filename
        if filename is None or filename == "-":
            text = self._fix_text(tree.code)
        else:
            text = self._fix_file(Path(filename), tree.code)
        return tree if text == tree.code else cst.parse_module(text)

    def _fix_text(self, code: str) -> str:
        """stdin: no file, so no project; the module alone."""
        try:
            result = fix_source(code, self.options)
        except SourceError as error:
            raise SkipFile(f"jaxfix cannot read this: {error}") from None
        self._warn_left(result.findings)
        if result.remote:
            raise SkipFile("a fix here must also change another file: run `jaxfix migrate`")
        return result.text

    def _fix_file(self, path: Path, code: str) -> str:
        run = engine.run([path], self.options, fix=True, write=False, jobs=1, project_files=_project_files(path))
        mine = [f for f in run.files if f.path.resolve() == path.resolve()]
        if len(run.files) != 1 or len(mine) != 1 or mine[0].remote:
            raise SkipFile("a fix here must also change another file: run `jaxfix migrate`")
        (result,) = mine
        if result.error is not None:
            raise SkipFile(f"jaxfix cannot read this: {result.error}")
        self._warn_left(result.findings)
        if not result.changed:
            return code
        if result.original != code:
            raise SkipFile("the file libcst read is not the file jaxfix read; not changed")
        return result.fixed

    def _warn_left(self, findings) -> None:
        for finding in findings:
            self.warn(f"{finding.code} line {finding.line}: {finding.message}")


@lru_cache(maxsize=16)
def _discovered(root: Path) -> tuple[Path, ...]:
    return tuple(discover([root]))


def _project_files(path: Path) -> list[Path]:
    """What ``jaxfix migrate`` treats as path's project (`runner.project_files_of`), found once per process."""
    root = project_root([path])
    if root is None:
        return [path]
    found = list(_discovered(root))
    return found if path.resolve() in {f.resolve() for f in found} else [*found, path]


class AllRules(JaxfixCommand):
    """Every rule's fixes, as ``jaxfix migrate``."""


def _command_for(code: str) -> type[JaxfixCommand]:
    """The command that applies one rule's fixes, named as the rule's class (so the
    names and documentation cannot drift from the registry)."""
    rule = RULES[code]
    return type(
        rule.__name__,
        (JaxfixCommand,),
        {
            "__doc__": f"{code}: {rule.summary}.",
            "__module__": __name__,
            "CODES": (code,),
            "DESCRIPTION": f"{code} ({rule.name}): as `jaxfix migrate --select {code}`.",
        },
    )


#: The command for each rule code; each is also a module attribute under its
#: class name (``commands.StaticOperandToBranch``) and its code (``commands.JAX101``),
#: which is how ``libcst.tool`` finds it.
COMMANDS: dict[str, type[JaxfixCommand]] = {code: _command_for(code) for code in RULES}
for _code, _command in COMMANDS.items():
    globals()[_command.__name__] = globals()[_code] = _command
