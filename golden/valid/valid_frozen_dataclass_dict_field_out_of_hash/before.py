import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Problem:
    """Static settings of a solver: the lookup table is left out of the hash and the comparison."""

    steps: int
    table: dict = dataclasses.field(default_factory=dict, compare=False)


@partial(jax.jit, static_argnames="problem")
def solve(x, problem):
    for _ in range(problem.steps):
        x = x * problem.table.get("decay", 1.0)
    return x


print(solve(jnp.ones(3), problem=Problem(3, {"decay": 0.5})))
print(solve(jnp.ones(3), problem=Problem(steps=2, table={"decay": 0.25})))
