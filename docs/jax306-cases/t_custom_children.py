"""A class registered with its own tree_flatten: what jit does with a Python int among the children,
and with the same int moved into the aux_data. Each row jits a function reading the count."""

import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


def solver_class(count_in_aux):
    """A fresh class per row, `rank` returned among the children or in the aux_data."""

    @register_pytree_node_class
    class Solver:
        def __init__(self, scale, rank):
            self.scale = scale
            self.rank = rank

        def tree_flatten(self):
            if count_in_aux:
                return (self.scale,), {"rank": self.rank}
            return (self.scale, self.rank), {}

        @classmethod
        def tree_unflatten(cls, aux_data, children):
            if count_in_aux:
                return cls(children[0], **aux_data)
            return cls(*children)

    return Solver


def tested(solver, x):
    return x * solver.scale if solver.rank > 0 else -x


def sized(solver, x):
    return jnp.arange(solver.rank) * solver.scale + x


def run(body, count_in_aux):
    Solver = solver_class(count_in_aux)
    traces = []

    def counted(solver, x):
        traces.append(1)
        return body(solver, x)

    fn = jax.jit(counted)
    try:
        for rank in (2, 2, 3):
            fn(Solver(1.5, rank), 1.0)
    except Exception as error:  # noqa: BLE001 - the row prints which error
        return type(error).__name__
    return f"runs, traced {len(traces)} times for ranks 2, 2, 3"


for name, body in (("`if solver.rank > 0:`", tested), ("`jnp.arange(solver.rank)`", sized)):
    for where, in_aux in (("children", False), ("aux_data", True)):
        print(f"| {name} | {where} | {run(body, in_aux)} |")
