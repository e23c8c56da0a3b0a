"""Cut down from tinygp.kernels.quasisep (Quasisep.to_general_qsm and the Exp kernel)."""
from dataclasses import dataclass, field
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

JAXArray = jax.Array


class GeneralQSM(NamedTuple):
    pl: JAXArray
    ql: JAXArray
    pu: JAXArray
    qu: JAXArray
    a: JAXArray
    idx: JAXArray


class Quasisep:
    def stationary_covariance(self) -> JAXArray:
        raise NotImplementedError

    def observation_model(self, X: JAXArray) -> JAXArray:
        raise NotImplementedError

    def transition_matrix(self, X1: JAXArray, X2: JAXArray) -> JAXArray:
        raise NotImplementedError

    def coord_to_sortable(self, X: JAXArray) -> JAXArray:
        return X

    def to_general_qsm(self, X1: JAXArray, X2: JAXArray) -> GeneralQSM:
        """The generalized quasiseparable representation of this kernel"""
        sortable = jax.vmap(self.coord_to_sortable)
        idx = jnp.searchsorted(sortable(X2), sortable(X1), side="right") - 1

        Xs = jax.tree_util.tree_map(lambda x: np.append(x[0], x[:-1]), X2)
        Pinf = self.stationary_covariance()
        a = jax.vmap(self.transition_matrix)(Xs, X2)
        h1 = jax.vmap(self.observation_model)(X1)
        h2 = jax.vmap(self.observation_model)(X2)

        ql = h2
        pl = h1 @ Pinf
        qu = h1
        pu = h2 @ Pinf

        i = jnp.clip(idx, 0, ql.shape[0] - 1)
        Xi = jax.tree_util.tree_map(lambda x: jnp.asarray(x)[i], X2)
        pl = jax.vmap(jnp.dot)(pl, jax.vmap(self.transition_matrix)(Xi, X1))

        i = jnp.clip(idx + 1, 0, pu.shape[0] - 1)
        Xi = jax.tree_util.tree_map(lambda x: jnp.asarray(x)[i], X2)
        qu = jax.vmap(jnp.dot)(jax.vmap(self.transition_matrix)(X1, Xi), qu)

        return GeneralQSM(pl=pl, ql=ql, pu=pu, qu=qu, a=a, idx=idx)


@jax.tree_util.register_dataclass
@dataclass
class Exp(Quasisep):
    scale: JAXArray
    sigma: JAXArray = field(default_factory=lambda: jnp.ones(()))

    def stationary_covariance(self) -> JAXArray:
        return jnp.ones((1, 1))

    def observation_model(self, X: JAXArray) -> JAXArray:
        return jnp.array([self.sigma])

    def transition_matrix(self, X1: JAXArray, X2: JAXArray) -> JAXArray:
        dt = X2 - X1
        return jnp.exp(-dt[None, None] / self.scale)


@jax.jit
def condition(kernel, X, X_test):
    return kernel.to_general_qsm(X_test, X)


X = jnp.linspace(0.0, 5.0, 6)
X_test = jnp.array([0.5, 2.2, 4.9])
qsm = condition(Exp(scale=jnp.array(1.5)), X, X_test)
show = lambda v: np.asarray(v, dtype=np.float64).round(4).ravel().tolist()
print(show(qsm.a), show(qsm.pl), show(qsm.qu), qsm.idx.tolist())
