"""An explicit Euler integrator kept as a pytree, its step count among the children."""
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


def decay(x):
    return -0.5 * x


@jax.jit
def integrate(integrator, x0):
    x = x0
    for _ in range(integrator.n_steps):
        x = x + integrator.dt * decay(x)
    return x


print(integrate(Integrator(0.1, n_steps=5), jnp.array([1.0, 2.0])))
print(integrate(Integrator(0.05), jnp.array([1.0, 2.0])))
