import dataclasses
import functools

import jax
import jax.numpy as jnp
import numpy as np


@functools.partial(jax.tree_util.register_dataclass,
                   data_fields=["link_jacobians"], meta_fields=["frame_parent"])
@dataclasses.dataclass
class JaxSimModel:
    link_jacobians: jax.Array      # (n_links, 6, n_dofs)
    frame_parent: tuple            # parent link of every extra frame


@functools.partial(jax.tree_util.register_dataclass,
                   data_fields=["joint_positions"], meta_fields=[])
@dataclasses.dataclass
class JaxSimModelData:
    joint_positions: jax.Array


@functools.partial(jax.jit, static_argnames=["frame_index", "output_vel_repr"])
def jacobian(model, data, *, frame_index, output_vel_repr=None):
    """Compute the free-floating jacobian of the frame."""
    L = model.frame_parent[frame_index]
    L_J_WL = model.link_jacobians[L]
    return L_J_WL * jnp.cos(data.joint_positions)[None, :]


model = JaxSimModel(
    link_jacobians=jnp.arange(3 * 6 * 2, dtype=jnp.float32).reshape(3, 6, 2) / 10.0,
    frame_parent=(2, 0, 1, 2),
)
data = JaxSimModelData(joint_positions=jnp.array([0.1, -0.4]))
frame_indexes = [0, 1, 3]

J_WL_frames = jax.vmap(
    lambda idx: jacobian(model=model, data=data, frame_index=idx)
)(jnp.array(frame_indexes))
print(np.round(np.asarray(J_WL_frames).sum(axis=(1, 2)), 4))
