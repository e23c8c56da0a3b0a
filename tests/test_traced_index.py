"""An array indexed by a tracer is a tracer: a loop count read from a constant table by a traced index."""

from __future__ import annotations

from jaxfix.transforms import Options, check, check_source, fix_source

SOURCE = """\
import jax
import jax.numpy as jnp

counts = {table}

def total(i, x):
    acc = x
    for _ in range(counts[i]):
        acc = acc * 2
    return acc

print(jax.vmap(total)(jnp.arange(3), jnp.ones(3)))
"""


def test_a_count_read_by_a_traced_index_becomes_a_fori_loop() -> None:
    source = SOURCE.format(table="jnp.array([2, 3, 4])")
    assert [f.code for f in check_source(source, Options())] == ["JAX301"]
    assert "    acc = jax.lax.fori_loop(0, counts[i], lambda _, acc: acc * 2, acc)\n" in fix_source(source, Options()).text
    assert check(source).findings == check(source, narrow=False).findings  # the screen lets it through


def test_a_python_list_indexed_by_a_tracer_is_not_followed() -> None:
    """`[2, 3, 4][i]` fails at the index itself (TracerIntegerConversionError): a fori_loop would too."""
    source = SOURCE.format(table="[2, 3, 4]")
    assert all(f.fix is None for f in check_source(source, Options()))
