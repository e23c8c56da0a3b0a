# Cut down from https://github.com/probml/pyprobml/pull/647
import jax
import jax.numpy as jnp
from functools import partial


def project_test(d, D):
    key = jax.random.PRNGKey(314)
    return jax.random.normal(key, shape=(D, d))


project_partial = partial(project_test, D=10)
print(project_partial(2).shape)

min_dim, max_dim = 10, 130
jump_size = 50
subspace_dims = [2] + list(range(min_dim, max_dim, jump_size))

projections = jax.vmap(project_partial)(jnp.array(subspace_dims))
print(projections.shape)
