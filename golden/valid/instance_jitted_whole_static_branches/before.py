# A population model jitted whole (gwpopulation's style): its Python branches read a
# setting fixed at construction and the static shape of the data, never a traced value.
import jax
import jax.numpy as xp


class PowerLaw(object):
    def __init__(self, normalise=True):
        self.normalise = normalise
        self.grid = xp.linspace(0.1, 1.0, 50)

    def __call__(self, dataset, alpha):
        prob = dataset["mass"] ** (-alpha)
        if self.normalise:
            prob = prob / xp.trapezoid(self.grid ** (-alpha), self.grid)
        if dataset["mass"].ndim > 1:
            prob = prob.sum(axis=-1)
        return prob


model = PowerLaw()
dataset = {"mass": xp.array([0.2, 0.5, 0.9])}
jitted = jax.jit(model)
print([round(float(v), 3) for v in jitted(dataset, alpha=1.5)])
