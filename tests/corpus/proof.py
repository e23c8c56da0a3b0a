"""Prove jaxfix on code nobody here wrote: check and migrate a copy of any folder.

    python tests/corpus/proof.py DIR [--unsafe-fixes] [--no-equivalence] [--jobs N] [--report FILE]

The folder is copied (DIR itself is never written) into a fresh git work tree
with one commit, as a user's checkout would be, and jaxfix runs on the copy
as a user runs it, in its own processes:

1. ``jaxfix check --output-format json``: no crash (no traceback, exit 0/1/2),
   and every file it could not read is one Python itself cannot parse;
2. ``jaxfix diff`` keeps the patch, for people to judge each change;
3. ``jaxfix migrate`` (no ``--allow-dirty``: the copy is committed): no crash;
   every file it changed parses (a notebook: its JSON and its code); every
   file without a fix jaxfix may apply is byte-identical, and so is every
   file that is not Python; no file appears or vanishes;
4. a second ``migrate`` changes nothing, and ``check`` finds no fix left to
   apply;
5. unless ``--no-equivalence``: for every file that passes the byte
   pre-filter, the fast path (screen and slice) finds exactly what the
   whole-module analysis finds (``check(text) == check(text, narrow=False)``),
   with and without unsafe fixes; and for every Python file, its outline
   gives the import summary its whole text gives (`transforms.toplevel`).

Prints the numbers, every change with its findings, and every problem; exits
1 when there is a problem. ``tests/corpus/test_corpus.py`` runs it under
pytest when ``JAXFIX_CORPUS`` names a folder.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from jaxfix.codemods import notebooks  # noqa: E402
from jaxfix.codemods.sourcefile import InputError, decode  # noqa: E402
from jaxfix.transforms import Options, SourceError, check, selected_rules  # noqa: E402
from jaxfix.transforms.core import stdlib_ast
from jaxfix.transforms.project.outline import outline  # noqa: E402
from jaxfix.transforms.project.repo_index import summarize  # noqa: E402

SOURCES = (".py", ".ipynb")
#: What a copy leaves out: version control and caches, never analysed anyway.
_NOT_COPIED = shutil.ignore_patterns(".git", "__pycache__", ".jaxfix_cache")


@dataclass
class Change:
    """One file migrate rewrote, with the findings whose fixes explain it."""

    path: str
    findings: list[dict]


@dataclass
class Proof:
    files: int = 0
    findings: int = 0
    fixable: int = 0
    errors: list[str] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    patch: str = ""
    prefiltered: int = 0
    problems: list[str] = field(default_factory=list)
    report: dict = field(default_factory=dict)


# -- running jaxfix as a user does ----------------------------------------------------------


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "JAXFIX_"))}
    return {**env, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "COLUMNS": "200"}


def jaxfix(args: list[str], cwd: Path, proof: Proof, step: str) -> subprocess.CompletedProcess[str]:
    """One jaxfix command; a traceback or an unknown exit code is a problem."""
    done = subprocess.run(
        [sys.executable, "-m", "jaxfix", *args], cwd=cwd, capture_output=True, text=True, env=_env()
    )
    if done.returncode not in (0, 1, 2) or "Traceback (most recent call last)" in done.stdout + done.stderr:
        proof.problems.append(f"{step}: crashed (exit {done.returncode}):\n{done.stderr[-4000:]}")
    return done


def git(args: list[str], cwd: Path) -> None:
    subprocess.run(
        ["git", "-c", "user.email=proof@example.com", "-c", "user.name=proof", "-c", "commit.gpgsign=false", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def copy_tree(source: Path, target: Path) -> None:
    """A committed copy: migrate then runs without ``--allow-dirty``, and git decides what is ignored."""
    shutil.copytree(source, target, ignore=_NOT_COPIED, symlinks=True)
    git(["init", "-q", "-b", "main"], target)
    git(["add", "-A", "-f", "."], target)
    git(["commit", "-q", "--no-verify", "-m", "corpus"], target)


def snapshot(folder: Path) -> dict[str, str]:
    """Every file's content hash, by path relative to the folder (.git left out)."""
    out: dict[str, str] = {}
    for path in folder.rglob("*"):
        if ".git" in path.relative_to(folder).parts or not path.is_file() or path.is_symlink():
            continue
        out[path.relative_to(folder).as_posix()] = hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()
    return out


# -- what a written file must be -------------------------------------------------------------


def parse_problem(path: Path) -> str | None:
    """Why the file is not a program Python can read (None: it is)."""
    data = path.read_bytes()
    try:
        if path.suffix == ".ipynb":
            json.loads(data.decode("utf-8"))
            text = notebooks.read(data.decode("utf-8")).python()[0]
        else:
            text = decode(data).text
        ast.parse(text)
    except (SyntaxError, ValueError, UnicodeDecodeError, InputError, RecursionError, MemoryError) as error:
        return f"{type(error).__name__}: {error}"
    return None


def applicable(finding: dict, unsafe: bool) -> bool:
    fix = finding.get("fix")
    return fix is not None and (fix["applicability"] == "safe" or unsafe)


# -- the proof ---------------------------------------------------------------------------------


def prove(
    directory: Path,
    *,
    unsafe_fixes: bool = False,
    equivalence: bool = True,
    jobs: int | None = None,
    work: Path | None = None,
) -> Proof:
    proof = Proof()
    directory = directory.resolve()
    with tempfile.TemporaryDirectory(prefix="jaxfix-proof-", dir=work) as tmp:
        copy = Path(tmp) / directory.name
        copy_tree(directory, copy)
        flags = ["--no-cache", *(["--unsafe-fixes"] if unsafe_fixes else []), *(["--jobs", str(jobs)] if jobs else [])]

        checked = jaxfix(["check", "--output-format", "json", *flags, "."], copy, proof, "check")
        try:
            report = json.loads(checked.stdout)
        except ValueError:
            proof.problems.append(f"check: not JSON on stdout:\n{checked.stdout[:2000]}")
            return proof
        proof.report = report
        by_file: dict[str, list[dict]] = {}
        for finding in report["findings"]:
            by_file.setdefault(finding["filename"], []).append(finding)
        proof.findings = len(report["findings"])
        proof.fixable = sum(applicable(f, unsafe_fixes) for f in report["findings"])
        for error in report["errors"]:
            proof.errors.append(f"{error['filename']}: {error['message']}")
            why = parse_problem(copy / error["filename"])
            if why is None:
                proof.problems.append(f"check: {error['filename']} parses, yet jaxfix says: {error['message']}")

        proof.patch = jaxfix(["diff", *flags, "."], copy, proof, "diff").stdout

        before = snapshot(copy)
        proof.files = sum(1 for name in before if name.endswith(SOURCES))
        jaxfix(["migrate", *flags, "."], copy, proof, "migrate")
        after = snapshot(copy)
        _judge_writes(copy, before, after, by_file, unsafe_fixes, proof)

        again = jaxfix(["migrate", "--allow-dirty", *flags, "."], copy, proof, "second migrate")
        if snapshot(copy) != after:
            changed = sorted(k for k, v in snapshot(copy).items() if after.get(k) != v)
            proof.problems.append(f"second migrate: changed {changed[:20]}\n{again.stdout[-2000:]}")
        rechecked = jaxfix(["check", "--output-format", "json", *flags, "."], copy, proof, "check after migrate")
        try:
            left = [f for f in json.loads(rechecked.stdout)["findings"] if applicable(f, unsafe_fixes)]
        except ValueError:
            left = [{"filename": "?", "message": rechecked.stdout[:2000]}]
        for finding in left:
            proof.problems.append(f"after migrate, a fix is still offered: {finding['filename']}: {finding['message']}")

        if equivalence:
            _check_equivalence(directory, jobs, proof)
    return proof


def _judge_writes(
    copy: Path, before: dict[str, str], after: dict[str, str], by_file: dict[str, list[dict]], unsafe: bool, proof: Proof
) -> None:
    appeared = sorted(set(after) - set(before))
    vanished = sorted(set(before) - set(after))
    if appeared or vanished:
        proof.problems.append(f"migrate: files appeared {appeared[:20]} or vanished {vanished[:20]}")
    for name in sorted(set(before) & set(after)):
        if before[name] == after[name]:
            continue
        findings = by_file.get(name, [])
        proof.changes.append(Change(name, findings))
        if not name.endswith(SOURCES):
            proof.problems.append(f"migrate: changed {name}, which is not Python")
        if not any(applicable(f, unsafe) for f in findings):
            proof.problems.append(f"migrate: changed {name}, where check found no fix to apply")
        why = parse_problem(copy / name)
        if why is not None:
            proof.problems.append(f"migrate: {name} no longer parses: {why}")


# -- the fast path equals the whole-module analysis -----------------------------------------


def _module_text(path: Path, data: bytes) -> str | None:
    """The text jaxfix analyses, when the file passes the byte pre-filter (None otherwise)."""
    if not any(rule.may_match(data) for rule in selected_rules(Options())):
        return None
    try:
        if path.suffix == ".ipynb":
            return notebooks.read(data.decode("utf-8")).python()[0]
        return decode(data).text
    except (InputError, UnicodeDecodeError, ValueError):
        return None


def _comparable(text: str, options: Options, narrow: bool):
    try:
        return [(f.code, f.span, f.message, f.fix, f.notes) for f in check(text, options, narrow=narrow).findings]
    except SourceError as error:
        return ("SourceError", str(error))
    except Exception as error:  # noqa: BLE001 - a crash is a finding of this proof
        return ("crash", f"{type(error).__name__}: {error}")


def _outline_problem(path: Path, data: bytes) -> str | None:
    """What another module's import summary reads from this module's outline, against its whole text."""
    if path.suffix != ".py":
        return None
    try:
        text = decode(data).text
    except (InputError, UnicodeDecodeError, ValueError):
        return None
    reduced, whole = outline(text), stdlib_ast.parse(text)
    if reduced is None or whole is None:
        return None
    tree = stdlib_ast.parse(reduced)
    if tree is None or summarize(tree) != summarize(whole):
        return f"{path}: its outline summarizes differently from its text"
    return None


def equivalence_problem(path: str) -> tuple[bool, str | None]:
    """(passed the pre-filter, a description of any difference)."""
    data = Path(path).read_bytes()
    outlined = _outline_problem(Path(path), data)
    if outlined is not None:
        return False, outlined
    text = _module_text(Path(path), data)
    if text is None:
        return False, None
    for unsafe in (False, True):
        options = Options(unsafe_fixes=unsafe)
        narrow, whole = _comparable(text, options, True), _comparable(text, options, False)
        if narrow != whole:
            return True, f"{path} (unsafe={unsafe}): narrow {narrow!r}\n  whole {whole!r}"
        if isinstance(narrow, tuple) and narrow[0] == "crash":
            return True, f"{path}: check crashed: {narrow[1]}"
    return True, None


def _check_equivalence(directory: Path, jobs: int | None, proof: Proof) -> None:
    paths = sorted((str(p) for p in directory.rglob("*") if p.suffix in SOURCES and p.is_file()), key=os.path.getsize)
    paths.reverse()  # the biggest first, so no worker is left with one at the end
    with ProcessPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        for passed, problem in pool.map(equivalence_problem, paths, chunksize=1):
            proof.prefiltered += passed
            if problem is not None:
                proof.problems.append(f"equivalence: {problem}")


# -- the command line ------------------------------------------------------------------------


def render(proof: Proof) -> str:
    lines = [
        f"files: {proof.files} Python files and notebooks",
        f"findings: {proof.findings} ({proof.fixable} with a fix migrate applies)",
        f"files changed by migrate: {len(proof.changes)}",
        f"files jaxfix could not read: {len(proof.errors)}",
    ]
    if proof.prefiltered:
        lines.append(f"files through the byte pre-filter (narrow == whole checked): {proof.prefiltered}")
    lines += [f"  error: {e}" for e in proof.errors]
    lines.append("")
    lines.append("every finding:")
    for finding in proof.report.get("findings", []):
        where = finding["location"]
        place = f"cell {where['cell']}:{where['line']}" if "cell" in where else str(where["line"])
        fix = finding["fix"]["applicability"] if finding.get("fix") else "report"
        lines.append(f"  {finding['filename']}:{place} {finding['code']} [{fix}] {finding['message']}")
    lines.append("")
    lines.append("every change:")
    for change in proof.changes:
        lines.append(f"  {change.path}")
        for finding in change.findings:
            lines.append(f"    {finding['code']} line {finding['location']['line']}: {finding['message']}")
    if proof.patch:
        lines += ["", "the patch:", proof.patch.rstrip("\n")]
    lines.append("")
    lines.append(f"problems: {len(proof.problems)}")
    lines += [f"  {p}" for p in proof.problems]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--unsafe-fixes", action="store_true", help="also apply fixes marked unsafe")
    parser.add_argument("--no-equivalence", action="store_true", help="skip the narrow == whole comparison")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--report", type=Path, default=None, help="also write the report here")
    args = parser.parse_args(argv)
    proof = prove(args.directory, unsafe_fixes=args.unsafe_fixes, equivalence=not args.no_equivalence, jobs=args.jobs)
    text = render(proof)
    sys.stdout.write(text)
    if args.report is not None:
        args.report.write_text(text)
    return 1 if proof.problems else 0


if __name__ == "__main__":
    sys.exit(main())
