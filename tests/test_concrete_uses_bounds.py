"""What a parameter's value may meet is followed through names bound on several paths (``n =
params.steps`` under ``if n is None:``), but only near the value: a chain of ``if``/``else``
rebindings, each read seeing two bindings, would otherwise double the reads followed at every link
(heldout59's evojax program hung the check). Counted, not timed."""

from __future__ import annotations

from jaxfix.transforms import Options, check
from jaxfix.transforms.semantics import concrete_uses

LINKS = 10


def _chain(links: int) -> str:
    lines = [
        "import jax",
        "import jax.numpy as jnp",
        "",
        "",
        "@jax.jit",
        "def step(x, flag, scale):",
        "    v0 = scale",
    ]
    for i in range(1, links + 1):
        lines += [
            f"    if flag:",
            f"        v{i} = v{i - 1} + 1.0",
            f"    else:",
            f"        v{i} = v{i - 1} * 2.0",
            f"    if flag:",
            f"        v{i} = v{i} - 1.0",
        ]
    lines += [f"    if v{links} > 0:", "        return x", "    return -x", "", "", "print(step(jnp.ones(2), True, 0.5))", ""]
    return "\n".join(lines)


def test_rebinding_chains_are_followed_a_bounded_number_of_times(monkeypatch) -> None:
    calls = 0
    follow = concrete_uses.ConcreteUses._follow

    def counted(self, *args, **kwargs):
        nonlocal calls
        calls += 1
        return follow(self, *args, **kwargs)

    monkeypatch.setattr(concrete_uses.ConcreteUses, "_follow", counted)
    findings = check(_chain(LINKS), Options(), narrow=False).findings
    assert calls < 50 * LINKS, calls  # doubling at each link would be 2 ** 10
    assert findings  # `if v16 > 0` on a traced parameter: still reported
