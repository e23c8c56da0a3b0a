"""Review comments from findings: suggestions that GitHub can apply, diffs where it cannot."""

from __future__ import annotations

import re

from jaxfix.codemods.review.changed_lines import parse_diff, unquote_path
from jaxfix.codemods.review.pull_review import (
    build_review,
    not_yet_posted,
    posted_fingerprints,
)
from jaxfix.codemods.review.suggestions import DIFF, NOTE, SUGGESTION, comment_for, fence_for
from jaxfix.transforms import (
    Applicability,
    Edit,
    Finding,
    Fix,
    Options,
    Position,
    Span,
    check_source,
)
from jaxfix.transforms.core.textedit import apply_edits

from .helpers import BRANCHES, GOLDEN, call

_SUGGESTION = re.compile(r"^(`{3,})suggestion\n(.*?)^\1$", re.DOTALL | re.MULTILINE)


def apply_suggestion(text: str, comment: dict) -> str:
    """What GitHub's "Commit suggestion" does: replace lines start_line..line with the block."""
    (match,) = _SUGGESTION.finditer(comment["body"])
    lines = text.splitlines(keepends=True)
    start = comment.get("start_line", comment["line"])
    return "".join(lines[: start - 1]) + match.group(2) + "".join(lines[comment["line"] :])


def only_finding(text: str, **options) -> Finding:
    (finding,) = check_source(text, Options(**options))
    return finding


def test_a_fix_on_changed_lines_is_a_suggestion_of_exactly_those_lines() -> None:
    text = BRANCHES + call(3) + "z = 1\n"
    finding = only_finding(text)
    comment = comment_for("pkg/m.py", text, finding, frozenset({14, 15}), unsafe_fixes=False)
    assert comment is not None and comment.kind == SUGGESTION
    api = comment.api()
    assert api == {"path": "pkg/m.py", "line": 14, "side": "RIGHT", "body": comment.body}
    assert "```suggestion\ny3 = jax.lax.cond(True, partial(run_true, 3), partial(run_false, 3), 1.0)\n```" in comment.body
    assert apply_suggestion(text, api) == apply_edits(text, finding.fix.edits)
    assert comment.body.startswith("**jaxfix JAX101** `static-operand-to-branch`: `jax.lax.cond` passes `3`")


def test_a_fix_over_several_lines_covers_them_all() -> None:
    text = BRANCHES + "y = jax.lax.cond(\n    True,\n    run_true,\n    run_false,\n    3,\n    1.0,\n)\n"
    finding = only_finding(text)
    comment = comment_for("m.py", text, finding, frozenset(range(14, 21)), unsafe_fixes=False)
    assert comment is not None and comment.kind == SUGGESTION
    api = comment.api()
    assert (api["start_line"], api["line"], api["start_side"]) == (16, 19, "RIGHT")  # the removed "3," reaches into line 19
    assert apply_suggestion(text, api) == apply_edits(text, finding.fix.edits)


def test_an_added_import_outside_the_changed_lines_makes_a_diff_comment() -> None:
    text = (GOLDEN / "JAX101" / "import_added_jit_factory" / "before.py").read_text()
    finding = only_finding(text)
    comment = comment_for("b.py", text, finding, frozenset({18}), unsafe_fixes=False)
    assert comment is not None and comment.kind == DIFF
    assert comment.api() == {"path": "b.py", "line": 18, "side": "RIGHT", "body": comment.body}
    assert "```suggestion" not in comment.body
    assert "changes lines this pull request does not" in comment.body
    assert "```diff\n--- a/b.py\n+++ b/b.py\n" in comment.body
    assert "+from functools import partial\n" in comment.body
    assert "`jaxfix migrate b.py`" in comment.body


def test_separate_places_all_changed_still_make_a_diff_comment() -> None:
    """A new file: every line changed, but the fix edits line 4 and line 18, not what lies between."""
    text = (GOLDEN / "JAX101" / "import_added_jit_factory" / "before.py").read_text()
    finding = only_finding(text)
    comment = comment_for("b.py", text, finding, frozenset(range(1, 30)), unsafe_fixes=False)
    assert comment is not None and comment.kind == DIFF
    assert "a suggestion can only replace one run of lines" in comment.body


def test_a_finding_off_the_changed_lines_gets_no_comment() -> None:
    text = BRANCHES + call(3)
    assert comment_for("m.py", text, only_finding(text), frozenset({1, 2, 13}), unsafe_fixes=False) is None


def test_unsafe_fix_is_a_diff_unless_unsafe_fixes() -> None:
    text = (GOLDEN / "JAX101" / "report_unsafe_by_default" / "before.py").read_text()
    finding = only_finding(text)
    assert finding.fix is not None and finding.fix.applicability is Applicability.UNSAFE
    shown = comment_for("u.py", text, finding, frozenset({22}), unsafe_fixes=False)
    assert shown is not None and shown.kind == DIFF and "marked unsafe, so it is shown rather than suggested" in shown.body
    assert "`jaxfix migrate --unsafe-fixes u.py`" in shown.body
    suggested = comment_for("u.py", text, finding, frozenset({22}), unsafe_fixes=True)
    assert suggested is not None and suggested.kind == SUGGESTION
    assert "This fix is marked unsafe: check it before you commit it." in suggested.body
    assert apply_suggestion(text, suggested.api()) == apply_edits(text, finding.fix.edits)


def test_a_finding_without_a_fix_is_a_note() -> None:
    text = (GOLDEN / "JAX101" / "refuse_star_operands" / "before.py").read_text()
    (finding,) = check_source(text)
    line = finding.span.start.line
    comment = comment_for("s.py", text, finding, frozenset({line}), unsafe_fixes=True)
    assert comment is not None and comment.kind == NOTE and comment.line == line
    assert "`jaxfix explain JAX101`" in comment.body and "```" not in comment.body


def test_deleting_whole_lines_and_inserting_lines() -> None:
    text = "a = 1\nb = 2\nc = 3\n"
    span = Span(Position(2, 0), Position(2, 1))
    delete = Finding("JAX101", "m", span, Fix(Applicability.SAFE, (Edit(6, 12, ""),)))
    comment = comment_for("t.py", text, delete, frozenset({2}), unsafe_fixes=False)
    assert comment is not None and comment.kind == SUGGESTION and comment.line == 2
    assert apply_suggestion(text, comment.api()) == "a = 1\nc = 3\n"
    insert = Finding("JAX101", "m", span, Fix(Applicability.SAFE, (Edit(6, 6, "import x\n"),)))
    comment = comment_for("t.py", text, insert, frozenset({2}), unsafe_fixes=False)
    assert comment is not None and comment.kind == SUGGESTION
    assert apply_suggestion(text, comment.api()) == "a = 1\nimport x\nb = 2\nc = 3\n"
    # Joining a line with the next one cannot be said by a suggestion of whole lines.
    join = Finding("JAX101", "m", span, Fix(Applicability.SAFE, (Edit(11, 12, " "),)))
    comment = comment_for("t.py", text, join, frozenset({2, 3}), unsafe_fixes=False)
    assert comment is not None and comment.kind == DIFF and "joins lines" in comment.body


def test_backticks_in_the_code_lengthen_the_fence() -> None:
    assert fence_for("x = '```'\n", "suggestion") == ("````suggestion", "````")
    assert fence_for("plain\n", "diff") == ("```diff", "```")
    text = "s = '```'; y = 1\n"
    finding = Finding("JAX101", "m", Span(Position(1, 0), Position(1, 1)), Fix(Applicability.SAFE, (Edit(15, 16, "2"),)))
    comment = comment_for("t.py", text, finding, frozenset({1}), unsafe_fixes=False)
    assert comment is not None and "````suggestion\ns = '```'; y = 2\n````" in comment.body
    assert apply_suggestion(text, comment.api()) == "s = '```'; y = 2\n"


def test_fingerprint_survives_lines_moving_but_not_the_code_changing() -> None:
    text = BRANCHES + call(3)
    moved = BRANCHES + "\n\n" + call(3)
    changed = BRANCHES + call(3).replace("1.0", "2.0")
    first = comment_for("m.py", text, only_finding(text), frozenset({14}), unsafe_fixes=False)
    again = comment_for("m.py", moved, only_finding(moved), frozenset({16}), unsafe_fixes=False)
    other = comment_for("m.py", changed, only_finding(changed), frozenset({14}), unsafe_fixes=False)
    elsewhere = comment_for("n.py", text, only_finding(text), frozenset({14}), unsafe_fixes=False)
    assert first and again and other and elsewhere
    assert first.fingerprint == again.fingerprint
    assert len({first.fingerprint, other.fingerprint, elsewhere.fingerprint}) == 3


def test_review_payload_and_duplicates() -> None:
    text = BRANCHES + call(3) + call(4)
    comments = [comment_for("m.py", text, f, frozenset({14, 15}), unsafe_fixes=False) for f in check_source(text)]
    assert all(comments)
    review = build_review(comments, "abc123")
    assert review["commit_id"] == "abc123" and review["event"] == "COMMENT"
    assert [c["line"] for c in review["comments"]] == [14, 15]
    assert "jaxfix found 2 JAX static-argument pitfalls" in review["body"]
    posted = {"body": review["body"], "user": {"type": "Bot"}, "author_association": "NONE"}
    assert posted_fingerprints([posted]) == {c.fingerprint for c in comments}
    assert not_yet_posted(comments, [posted]) == []
    # A contributor pasting the marker cannot silence the bot; a maintainer's review counts.
    forged = {"body": review["body"], "user": {"type": "User"}, "author_association": "CONTRIBUTOR"}
    assert not_yet_posted(comments, [forged]) == comments
    maintainer = {**forged, "author_association": "MEMBER"}
    assert not_yet_posted(comments, [maintainer]) == []


def test_parse_diff() -> None:
    diff = "\n".join(
        [
            "diff --git a/m.py b/m.py",
            "index 1111111..2222222 100644",
            "--- a/m.py",
            "+++ b/m.py",
            "@@ -3,0 +4,2 @@ def f():",
            "+x",
            "+y",
            "@@ -10 +12 @@",
            "-old",
            "+new",
            "@@ -20,2 +21,0 @@",
            "-gone",
            "--- also gone, though it looks like a header",
            "diff --git a/new.py b/new.py",
            "new file mode 100644",
            "--- /dev/null",
            "+++ b/new.py",
            "@@ -0,0 +1,2 @@",
            "+++ b/looks-like-a-header.py",
            "+second",
            "\\ No newline at end of file",
            "diff --git a/gone.py b/gone.py",
            "deleted file mode 100644",
            "--- a/gone.py",
            "+++ /dev/null",
            "@@ -1 +0,0 @@",
            "-x",
            'diff --git "a/sp\\303\\251cial \\"q\\".py" "b/sp\\303\\251cial \\"q\\".py"',
            '--- "a/sp\\303\\251cial \\"q\\".py"',
            '+++ "b/sp\\303\\251cial \\"q\\".py"',
            "@@ -1 +1 @@",
            "-a",
            "+b",
            "",
        ]
    )
    assert parse_diff(diff) == {
        "m.py": frozenset({4, 5, 12}),
        "new.py": frozenset({1, 2}),
        'spécial "q".py': frozenset({1}),
    }


def test_unquote_path() -> None:
    assert unquote_path("plain/name.py") == "plain/name.py"
    assert unquote_path('"tab\\there.py"') == "tab\there.py"
    assert unquote_path('"caf\\303\\251.py"') == "café.py"
