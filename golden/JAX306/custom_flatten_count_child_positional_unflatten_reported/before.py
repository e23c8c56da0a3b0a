"""A trajectory pytree whose point count is a child, rebuilt positionally from the children."""
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class Trajectory:
    def __init__(self, start, end, n_points):
        self.start = start
        self.end = end
        self.n_points = n_points

    def tree_flatten(self):
        return [self.start, self.end, self.n_points], None

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(*children)


@jax.jit
def path_length(traj: Trajectory):
    t = jnp.linspace(0.0, 1.0, traj.n_points)[:, None]
    points = traj.start + t * (traj.end - traj.start)
    return jnp.sum(jnp.linalg.norm(jnp.diff(points, axis=0), axis=1))


print(path_length(Trajectory(jnp.zeros(2), jnp.array([3.0, 4.0]), 11)))
