import dataclasses
import functools

import jax
import jax.numpy as jnp
import numpy as np


@functools.partial(jax.tree_util.register_dataclass, data_fields=["link_jacobians"], meta_fields=["n_links"])
@dataclasses.dataclass
class Model:
    link_jacobians: jax.Array
    n_links: int


@functools.partial(jax.jit, static_argnames=["link_index"])
def link_jacobian(model, q, *, link_index):
    return model.link_jacobians[link_index] * jnp.cos(q)


model = Model(link_jacobians=jnp.arange(12.0).reshape(3, 4) / 10.0, n_links=3)
q = jnp.array([0.1, -0.2, 0.3, 0.0])
J = jax.vmap(lambda i: link_jacobian(model, q, link_index=i))(jnp.arange(model.n_links))
print(np.round(np.asarray(J).sum(axis=1), 4))
