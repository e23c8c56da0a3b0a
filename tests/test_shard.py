"""`--shard K/N`: the parts of a run are disjoint, cover it, are balanced by bytes, and together find
exactly what the whole run finds, cross-module findings included (issue 20.4)."""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from pathlib import Path

import pytest

from jaxfix.codemods import shard

from .helpers import GOLDEN, jaxfix


@pytest.fixture(scope="module")
def monorepo(tmp_path_factory) -> Path:
    """Every multi-module golden case as a project of its own, side by side in one folder."""
    root = tmp_path_factory.mktemp("monorepo")
    for case in sorted((GOLDEN / "multi").glob("*/before")):
        target = root / case.parent.name
        shutil.copytree(case, target)
        (target / "pyproject.toml").write_text(f'[project]\nname = "{case.parent.name}"\n')
    return root


def findings(monorepo: Path, *args: str) -> Counter:
    result = jaxfix("check", "--no-cache", "--output-format", "json-lines", *args, ".", cwd=monorepo)
    assert result.returncode in (0, 1), result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    return Counter((r["filename"], r["location"]["line"], r["code"], r["message"]) for r in records)


def files_of(monorepo: Path, *args: str) -> list[str]:
    result = jaxfix("check", "--show-files", *args, ".", cwd=monorepo)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


@pytest.mark.parametrize("parts", [2, 3, 5])
def test_the_shards_together_find_exactly_what_the_whole_run_finds(monorepo: Path, parts: int) -> None:
    whole = findings(monorepo)
    assert any(name.endswith("main.py") for name, *_ in whole)  # findings that need another module to exist
    together: Counter = Counter()
    for part in range(1, parts + 1):
        together += findings(monorepo, "--shard", f"{part}/{parts}")
    assert together == whole


def test_the_project_is_read_whole_even_when_its_modules_are_in_other_shards(monorepo: Path) -> None:
    """A case whose modules the split puts in different parts, and whose finding needs the other module."""
    files = [monorepo / name for name in files_of(monorepo)]
    where = shard.assign(files, 3)
    by_case: dict[str, set[int]] = {}
    for path, part in where.items():
        by_case.setdefault(path.relative_to(monorepo).parts[0], set()).add(part)
    split = {case for case, parts in by_case.items() if len(parts) > 1}
    assert split, "no case has its modules in different shards: the test would prove nothing"
    naive: Counter = Counter()  # each shard's files named on their own: their projects are not found
    for part in (1, 2, 3):
        names = [str(p.relative_to(monorepo)) for p in files if where[p] == part]
        result = jaxfix("check", "--no-cache", "--output-format", "json-lines", *names, cwd=monorepo)
        naive += Counter(line for line in result.stdout.splitlines())
    sharded: Counter = Counter()
    for part in (1, 2, 3):
        result = jaxfix("check", "--no-cache", "--output-format", "json-lines", "--shard", f"{part}/3", ".", cwd=monorepo)
        sharded += Counter(result.stdout.splitlines())
    assert sharded != naive  # reading the whole project is what keeps the findings


def test_the_split_is_a_partition_balanced_by_bytes_and_independent_of_order(monorepo: Path) -> None:
    every = files_of(monorepo)
    parts = [files_of(monorepo, "--shard", f"{k}/3") for k in (1, 2, 3)]
    assert sorted(name for part in parts for name in part) == sorted(every)
    assert sum(map(len, parts)) == len(every)  # disjoint
    sizes = {name: os.stat(monorepo / name).st_size for name in every}
    loads = [sum(sizes[name] for name in part) for part in parts]
    assert max(loads) - min(loads) <= max(sizes.values())  # greedy by size: within one file of even
    paths = [monorepo / name for name in every]
    assert shard.assign(paths, 3) == shard.assign(list(reversed(paths)), 3)
    named = jaxfix("check", "--show-files", "--shard", "1/3", *reversed(sorted(os.listdir(monorepo))), cwd=monorepo)
    assert sorted(named.stdout.splitlines()) == sorted(parts[0])  # the same part however the paths are given


@pytest.mark.parametrize("spec", ["0/3", "4/3", "1/0", "a/b", "1"])
def test_a_bad_shard_is_a_usage_error(monorepo: Path, spec: str) -> None:
    result = jaxfix("check", "--shard", spec, ".", cwd=monorepo)
    assert result.returncode == 2 and "--shard" in result.stderr
