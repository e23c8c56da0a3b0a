"""JAX306 on classes that flatten themselves: when moving a child into the aux_data is proven."""

from __future__ import annotations

from jaxfix.transforms import Options, check

SOURCE = '''
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class Integrator:
    def __init__(self, dt, n_steps=10):
        self.dt = dt
        self.n_steps = n_steps

    def tree_flatten(self):
        return (self.dt, self.n_steps), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        dt, n_steps = children
        return cls(dt, n_steps=n_steps)


@jax.jit
def integrate(integrator, x0):
    x = x0
    for _ in range(integrator.n_steps):
        x = x + integrator.dt * x
    return x


print(integrate(Integrator(0.1, n_steps=5), jnp.ones(2)))
'''


def findings(src: str):
    """JAX306's findings, the same on the fast path and the whole analysis."""
    both = [[(f.code, f.line, bool(f.fix)) for f in check(src, Options(), narrow=n).findings if f.code == "JAX306"] for n in (True, False)]
    assert both[0] == both[1], "the fast path and the whole analysis disagree"
    return [f for f in check(src, Options(), narrow=False).findings if f.code == "JAX306"]


def test_a_count_every_construction_gives_a_python_int_moves_into_the_aux_data() -> None:
    (finding,) = findings(SOURCE)
    assert finding.fix is not None and "moves into the aux_data" in finding.message


def test_a_class_handed_on_under_another_name_is_reported() -> None:
    """``make = Integrator`` may build instances whose count jaxfix never sees (an array, say),
    which the aux_data could not hold: no move."""
    src = SOURCE.replace("print(integrate(", "make = Integrator\nprint(integrate(make(0.2, n_steps=jnp.array(3)), jnp.ones(2)))\nprint(integrate(")
    (finding,) = findings(src)
    assert finding.fix is None and "cannot see every instance" in finding.message, finding.message


def test_a_subclass_built_under_its_own_name_is_read_too() -> None:
    """The base named by a subclass builds nothing itself: the subclass's constructions are read."""
    src = SOURCE.replace("@jax.jit", "@register_pytree_node_class\nclass Euler(Integrator):\n    pass\n\n\n@jax.jit", 1)
    src = src.replace("Integrator(0.1, n_steps=5)", "Euler(0.1, n_steps=5)")
    (finding,) = findings(src)
    assert finding.fix is not None, finding.message
