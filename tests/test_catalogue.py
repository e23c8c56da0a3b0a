"""The rules' cards (`transforms.catalogue`) say what the rule classes say, and the pre-filter
that reads them drops exactly the files the rules' own pre-filter drops."""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxfix.transforms import RULES, Options
from jaxfix.transforms.catalogue import BY_CODE, CARDS, RuleCard, may_match, selected

ROOT = Path(__file__).resolve().parent.parent


def _card_of(rule) -> RuleCard:
    return RuleCard(rule.code, rule.name, rule.fix_label(), rule.summary, rule.required)


def test_there_is_one_card_per_rule_in_code_order() -> None:
    missing = [f"    {_card_of(rule)!r}," for code, rule in RULES.items() if code not in BY_CODE]
    assert not missing, "add to transforms/catalogue.py CARDS:\n" + "\n".join(missing)
    assert [c.code for c in CARDS] == list(RULES)


@pytest.mark.parametrize("code", sorted(RULES))
def test_each_card_equals_its_rule(code: str) -> None:
    assert BY_CODE[code] == _card_of(RULES[code]), f"transforms/catalogue.py: the card should read {_card_of(RULES[code])!r}"


@pytest.mark.parametrize(
    "options",
    [Options(), Options(select=frozenset({"JAX1"})), Options(ignore=frozenset({"JAX3", "JAX401"})), Options(select=frozenset({"JAX404"}))],
    ids=["all", "select JAX1", "ignore JAX3 JAX401", "select JAX404"],
)
def test_selected_cards_are_the_selected_rules(options: Options) -> None:
    from jaxfix.transforms import selected_rules

    assert [c.code for c in selected(options)] == [r.code for r in selected_rules(options)]


PROGRAMS = sorted((ROOT / "golden").rglob("*.py")) + sorted((ROOT / "examples").glob("*.py")) + sorted(
    (ROOT / "codemods").rglob("*.py")
)


@pytest.mark.parametrize("imports_static_jitted", [False, True])
def test_the_cards_pre_filter_agrees_with_the_rules_on_every_program(imports_static_jitted: bool) -> None:
    """Programs that pass and programs that do not (jaxfix's own modules mostly do not)."""
    verdicts = set()
    for path in PROGRAMS:
        data = path.read_bytes()
        for code, rule in RULES.items():
            by_card = BY_CODE[code].may_match(data, imports_static_jitted)
            assert by_card == rule.may_match(data, imports_static_jitted), (path, code)
            verdicts.add(by_card)
        assert may_match(data, Options(), imports_static_jitted) == any(
            r.may_match(data, imports_static_jitted) for r in RULES.values()
        )
    assert verdicts == {True, False}
