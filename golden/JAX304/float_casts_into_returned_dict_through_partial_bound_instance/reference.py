"""
Population hyper-likelihood with per-event extra statistics, jax backend (cut down from
gwpopulation.hyperpe; bilby's Likelihood/Model and the gravitational-wave posteriors are
replaced by small stand-ins).
"""
from functools import partial

import numpy as np
import jax
import jax.numpy as xp
from jax import jit


def to_number(value, func):
    if "jax" in xp.__name__:
        return value.astype(func)
    else:
        return func(value)


class PowerLawModel:
    """Stand-in for bilby.hyper.model.Model([power_law_primary_mass])."""

    def __init__(self):
        self.parameters = dict(alpha=None, mmin=None, mmax=None)

    def prob(self, data):
        alpha, mmin, mmax = (self.parameters[k] for k in ("alpha", "mmin", "mmax"))
        norm = (1 - alpha) / (mmax ** (1 - alpha) - mmin ** (1 - alpha))
        in_bounds = (data["mass_1"] >= mmin) & (data["mass_1"] <= mmax)
        return xp.where(in_bounds, norm * data["mass_1"] ** (-alpha), 0.0)


class HyperparameterLikelihood:
    def __init__(
        self,
        posteriors,
        hyper_prior,
        selection_function=lambda args: 1,
        conversion_function=lambda args: (args, None),
    ):
        self.samples_per_posterior = min(len(post["mass_1"]) for post in posteriors)
        self.data = {
            key: xp.stack([post[key][: self.samples_per_posterior] for post in posteriors])
            for key in posteriors[0]
        }
        self.hyper_prior = hyper_prior
        self.parameters = dict(hyper_prior.parameters)
        self.sampling_prior = self.data.pop("prior")
        self.conversion_function = conversion_function
        self.selection_function = selection_function
        self.n_posteriors = len(posteriors)

    def _compute_per_event_ln_bayes_factors(self, return_uncertainty=True):
        weights = self.hyper_prior.prob(self.data) / self.sampling_prior
        expectation = xp.mean(weights, axis=-1)
        if return_uncertainty:
            square_expectation = xp.mean(weights**2, axis=-1)
            variance = (square_expectation - expectation**2) / (
                self.samples_per_posterior * expectation**2
            )
            return xp.log(expectation), variance
        else:
            return xp.log(expectation)

    def _selection_function_with_uncertainty(self):
        result = self.selection_function(self.parameters)
        if isinstance(result, tuple):
            selection, variance = result
        else:
            selection = result
            variance = 0.0
        return selection, variance

    def generate_extra_statistics(self, sample):
        """
        Given an input sample, add extra statistics

        Adds the ln BF for each of the events in the data and the selection
        function
        """
        self.parameters.update(sample.copy())
        self.parameters, added_keys = self.conversion_function(self.parameters)
        self.hyper_prior.parameters.update(self.parameters)
        ln_ls, variances = self._compute_per_event_ln_bayes_factors(
            return_uncertainty=True
        )
        total_variance = sum(variances)
        for ii in range(self.n_posteriors):
            sample[f"ln_bf_{ii}"] = to_number(ln_ls[ii], float)
            sample[f"var_{ii}"] = to_number(variances[ii], float)
        selection, variance = self._selection_function_with_uncertainty()
        variance /= selection**2
        selection_variance = variance * self.n_posteriors**2
        sample["selection"] = selection
        sample["selection_variance"] = variance
        total_variance += selection_variance
        sample["variance"] = to_number(total_variance, float)
        if added_keys is not None:
            for key in added_keys:
                self.parameters.pop(key)
        return sample


def resampling_vt(parameters, n_found=2000):
    """Stand-in for gwpopulation.vt.ResamplingVT: Monte Carlo selection efficiency."""
    m = xp.linspace(5.0, 95.0, n_found)
    model = PowerLawModel()
    model.parameters.update(parameters)
    weights = model.prob(dict(mass_1=m)) * (m / 50.0) ** 2
    mu = xp.mean(weights)
    var = xp.var(weights) / n_found
    return mu, var


def generic_extra_statistics_function(likelihood, sample):
    return likelihood.generate_extra_statistics(sample)


rng = np.random.default_rng(10)
posteriors = [
    dict(mass_1=xp.asarray(rng.uniform(20, 40, 200)), prior=xp.ones(200) / 20.0)
    for _ in range(5)
]
likelihood = HyperparameterLikelihood(
    posteriors=posteriors,
    hyper_prior=PowerLawModel(),
    selection_function=resampling_vt,
)

extra_statistics = jit(partial(generic_extra_statistics_function, likelihood))
sample = dict(alpha=2.3, mmin=5.0, mmax=80.0)
result = extra_statistics(sample)
for key in sorted(result):
    print(key, result[key])
