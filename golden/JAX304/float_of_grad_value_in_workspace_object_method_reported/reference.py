# The external object cannot see JAX tracers, and JAX cannot differentiate through
# it. A human has to decide how to bridge it; here: call it on the host with
# jax.pure_callback and supply a derivative rule (central finite differences)
# with jax.custom_jvp. (Re-implementing getVal in jax.numpy is the other option.)
import jax
import jax.numpy as jnp
import numpy as np


class RooRealVarLike:
    """Stand-in for a ROOT object: stores a plain float, computes in Python."""

    def __init__(self):
        self._val = 0.0

    def setVal(self, v):
        self._val = float(v)

    def getVal(self):
        return 1.0 + 0.02 * self._val + 0.001 * self._val ** 2


class Workspace:
    def __init__(self):
        self._objs = {"alpha_ATLAS_LUMI": RooRealVarLike()}

    def obj(self, name):
        return self._objs[name]


t = Workspace()


def _host_kfact(alpha):
    obj = t.obj("alpha_ATLAS_LUMI")
    obj.setVal(alpha)
    return np.float32(obj.getVal())


@jax.custom_jvp
def kfact(alpha):
    return jax.pure_callback(_host_kfact, jax.ShapeDtypeStruct((), jnp.float32), alpha)


@kfact.defjvp
def _kfact_jvp(primals, tangents):
    (alpha,), (dalpha,) = primals, tangents
    eps = 1e-2
    slope = (kfact(alpha + eps) - kfact(alpha - eps)) / (2 * eps)
    return kfact(alpha), slope * dalpha


def NLL(mu1):
    mu = mu1[0]
    alpha = mu1[1]
    return mu + kfact(alpha)


print(round(NLL(jnp.array([1.0, 0.5])).item(), 4))
print(np.round(np.asarray(jax.grad(NLL)(jnp.array([1.0, 0.5]))), 3))
