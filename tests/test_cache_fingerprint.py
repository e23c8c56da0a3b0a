"""The result cache's key covers every module that decides a result, the rules' own folders included."""

from __future__ import annotations

import sys
from pathlib import Path

from jaxfix.codemods import cache
from jaxfix.transforms import RULES


def test_every_rule_module_is_in_the_fingerprint() -> None:
    hashed = set(cache.deciding_sources())
    for rule in RULES.values():
        assert Path(sys.modules[rule.__module__].__file__) in hashed, rule.code
    assert Path(sys.modules["jaxfix.transforms.semantics.analysis"].__file__) in hashed


def test_the_fingerprint_changes_with_a_rule(monkeypatch, tmp_path: Path) -> None:
    """A copy of transforms/ with one rule edited: a cached answer of the old rule is not served."""
    import shutil

    from jaxfix import transforms

    root = Path(transforms.__file__).parent
    copy = tmp_path / "jaxfix" / "transforms"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(root.parent / "codemods", tmp_path / "jaxfix" / "codemods", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(transforms, "__file__", str(copy / "__init__.py"))
    monkeypatch.setattr(cache.notebooks, "__file__", str(tmp_path / "jaxfix" / "codemods" / "notebooks.py"))
    cache.tool_fingerprint.cache_clear()
    before = cache.tool_fingerprint()
    rule = next(copy.glob("rules/jax101_*/rule.py"))
    rule.write_text(rule.read_text() + "\n# changed\n")
    cache.tool_fingerprint.cache_clear()
    try:
        assert cache.tool_fingerprint() != before
    finally:
        cache.tool_fingerprint.cache_clear()
