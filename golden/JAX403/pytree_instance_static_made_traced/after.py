# Cut down from tinygp (dfm/tinygp#57, "Fixing non-hashable issue"): the GP kernel, a frozen
# dataclass registered as a pytree, holds its scale as a jax array, and the conditioning
# function marks it static, so jit hashes the kernel and with it the array.
import dataclasses
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Exp:
    scale: Any

    def __call__(self, X1, X2):
        return jnp.exp(-jnp.abs(X1[:, None] - X2[None, :]) / self.scale)


@jax.jit
def condition(kernel, X, X_test):
    Kss = kernel(X_test, X_test)
    Ks = kernel(X, X_test)
    return Kss - Ks.T @ Ks


kernel = Exp(scale=jnp.array(1.5))
X = jnp.linspace(0.0, 5.0, 6)
cov = condition(kernel, X, jnp.array([0.5, 2.5]))
print("conditional variance:", [round(float(v), 4) for v in jnp.diag(cov)])
