# Cut down from jax-ml/jax#9085 ("Converting Concrete Tracer values to regular
# float values doesnt work"): the NLL pushes a parameter into an external
# (ROOT-like) object whose setVal only accepts Python floats, then differentiates.
import math

import jax
import jax.numpy as jnp


class RooRealVarLike:
    """Stand-in for a ROOT object: stores a plain float, computes in Python."""

    def __init__(self):
        self._val = 0.0

    def setVal(self, v):
        self._val = float(v)          # needs a concrete Python float

    def getVal(self):
        return 1.0 + 0.02 * self._val + 0.001 * self._val ** 2


class Workspace:
    def __init__(self):
        self._objs = {"alpha_ATLAS_LUMI": RooRealVarLike()}

    def obj(self, name):
        return self._objs[name]


t = Workspace()


def NLL(mu1):
    mu = mu1[0]                        # the first parameter mu
    alpha = mu1[1]                     # the second parameter alpha
    alpha_lumi_kFact = t.obj("alpha_ATLAS_LUMI")
    alpha_lumi_kFact.setVal(alpha)     # passing alpha value to the ROOT object
    result = mu + alpha_lumi_kFact.getVal()
    return result


print(round(NLL(jnp.array([1.0, 0.5])).item(), 4))
print(jax.grad(NLL)(jnp.array([1.0, 0.5])))
