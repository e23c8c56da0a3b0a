# google-research#1025 (ipagnn): the example batch that sizes the model's
# parameters is marked static, but it is a dict of NumPy arrays.
import functools

import jax
import jax.numpy as jnp
import numpy as np


class Adapter:
    def __init__(self, width):
        self.width = width

    def as_example(self, item):
        return jax.tree_util.tree_map(np.asarray, item)

    def create_params(self, batch):
        @functools.partial(jax.jit, static_argnums=(2,))
        def init(rng, example, width):
            features = example["tokens"].shape[-1]
            w = jax.random.normal(rng, (features, width))
            return {"w": w, "b": jnp.zeros(width) + example["length"].mean()}

        example = self.as_example(batch)
        return init(jax.random.PRNGKey(0), example, self.width)


rs = np.random.RandomState(0)
batch = {"tokens": rs.randint(0, 16, size=(2, 3)), "length": np.array([3, 2])}
params = Adapter(4).create_params(batch)
print(jax.tree_util.tree_map(jnp.shape, params))
print(round(float(params["b"][0]), 3))
