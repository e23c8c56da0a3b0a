# A kernel with hyper-parameters as Python floats (tinygp's style before arrays crept in):
# the frozen registered dataclass hashes by its fields, so marking it static is fine.
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Exp:
    scale: float = dataclasses.field(metadata=dict(static=True))

    def __call__(self, X1, X2):
        return jnp.exp(-jnp.abs(X1[:, None] - X2[None, :]) / self.scale)


@partial(jax.jit, static_argnums=(0,))
def condition(kernel, X, X_test):
    Ks = kernel(X, X_test)
    return kernel(X_test, X_test) - Ks.T @ Ks


cov = condition(Exp(scale=1.5), jnp.linspace(0.0, 5.0, 6), jnp.array([0.5, 2.5]))
print([round(float(v), 4) for v in jnp.diag(cov)])
