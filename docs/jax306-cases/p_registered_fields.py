"""JAX306's facts: which fields of a dataclass registered with jax.tree_util.register_dataclass
jit, vmap and scan trace, and what declaring one static changes.

Run: cd docs/jax306-cases && JAX_PLATFORMS=cpu python p_registered_fields.py
"""
import dataclasses
import sys
from pathlib import Path

import jax
import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from probe import probe  # noqa: E402


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Plain:
    scale: jax.Array
    steps: int = 3


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Static:
    scale: jax.Array
    steps: int = dataclasses.field(default=3, metadata=dict(static=True))


traces = []


def sized(c):
    traces.append(1)
    return jnp.zeros((c.steps,)) + c.scale


def looped(x, c):
    for _ in range(c.steps):
        x = x * c.scale
    return x


one = jnp.asarray(1.0)
probe("jit: jnp.zeros((c.steps,)), steps an ordinary field", lambda: jax.jit(sized)(Plain(one)))
probe("jit: range(c.steps), steps an ordinary field", lambda: jax.jit(looped)(jnp.ones(2), Plain(one)))
probe("lax.scan carry: jnp.zeros((c.steps,))", lambda: jax.lax.scan(lambda c, x: (c, sized(c).sum()), Plain(one), jnp.arange(2.0)))
probe("vmap(in_axes=(0, None)): range(c.steps)", lambda: jax.vmap(looped, in_axes=(0, None))(jnp.ones((2, 1)), Plain(one)))
probe("jit: c closed over, not an argument", lambda: jax.jit(lambda: sized(Plain(one)))())
probe("jit: steps declared static", lambda: jax.jit(sized)(Static(one)))
probe("jit: range(c.steps), steps static", lambda: jax.jit(looped)(jnp.ones(2), Static(jnp.asarray(2.0))))
probe("jit: x * c.steps, an ordinary field", lambda: jax.jit(lambda c: c.scale * c.steps)(Plain(jnp.asarray(2.0))))
probe("leaves of Plain(1.0)", lambda: len(jax.tree_util.tree_leaves(Plain(one))))
probe("leaves of Static(1.0)", lambda: len(jax.tree_util.tree_leaves(Static(one))))
probe("tree_map(x * 2) over Static: steps", lambda: jax.tree_util.tree_map(lambda v: v * 2, Static(one)).steps)
probe("tree_map(x * 2) over Plain: steps", lambda: jax.tree_util.tree_map(lambda v: v * 2, Plain(one)).steps)
jitted = jax.jit(lambda c: sized(c))  # a function of its own: jit caches traces per function
traces.clear()
probe("one jit(sized) called with steps 3, 3, 4 (static): traces", lambda: [jitted(Static(one, s)) for s in (3, 3, 4)] and len(traces))
probe("Static(one, [3]) through jit (a list in a static field)", lambda: jax.jit(sized)(Static(one, [3])))
