# dpiras/cosmopower-jax PR #17 (and #16): np.stack in _dict_to_ordered_arr_np breaks jax.jacfwd
import jax
# Enable double precision
jax.config.update("jax_enable_x64", True)
import numpy as np
import jax.numpy as jnp
from jax.nn import sigmoid


class CosmoPowerJAX:
    """Tiny stand-in for the pre-trained emulator (random weights, same code path)."""

    def __init__(self, probe='mpk_lin', n_hidden=8, n_modes=5, seed=0):
        rng = np.random.default_rng(seed)
        self.probe = probe
        self.parameters = ['omega_b', 'omega_cdm', 'ln10^{10}A_s', 'n_s', 'h', 'z']
        self.n_parameters = len(self.parameters)
        self.modes = np.linspace(1e-4, 1.0, n_modes)
        self.weights = [(rng.normal(size=(n_hidden, self.n_parameters)) * 0.3, rng.normal(size=n_hidden) * 0.1),
                        (rng.normal(size=(n_modes, n_hidden)) * 0.3, rng.normal(size=n_modes) * 0.1)]
        self.hyper_params = [(np.ones(n_hidden), np.full(n_hidden, 0.5))]
        self.param_train_mean = np.array([0.022, 0.12, 3.0, 0.96, 0.67, 0.5])
        self.param_train_std = np.array([0.001, 0.01, 0.1, 0.02, 0.05, 0.3])

    def _dict_to_ordered_arr_np(self, input_dict):
        """Sort input parameters. Taken verbatim from CP."""
        if self.parameters is not None:
            return jnp.stack([input_dict[k] for k in self.parameters], axis=1)
        else:
            return jnp.stack([input_dict[k] for k in input_dict], axis=1)

    def _activation(self, x, a, b):
        return jnp.multiply(jnp.add(b, jnp.multiply(sigmoid(jnp.multiply(a, x)), jnp.subtract(1., b))), x)

    def predict(self, input_vec):
        if isinstance(input_vec, dict):
            input_vec = self._dict_to_ordered_arr_np(input_vec)
        if len(input_vec.shape) == 1:
            input_vec = input_vec.reshape(-1, self.n_parameters)
        layer_out = (input_vec - self.param_train_mean) / self.param_train_std
        (w, b), = self.weights[:-1]
        alpha, beta = self.hyper_params[0]
        layer_out = self._activation(jnp.dot(layer_out, w.T) + b, alpha, beta)
        w, b = self.weights[-1]
        preds = jnp.dot(layer_out, w.T) + b
        return (10 ** (preds * 0.1)).squeeze()


def get_pgg(cosmo_dict, bias_dict, pshot, k, pklin_emulator=CosmoPowerJAX(probe='mpk_lin')):
    pklin = pklin_emulator.predict(cosmo_dict)
    pgg = (bias_dict['b1'] ** 2) * pklin + pshot
    return pgg


pklin_emulator = CosmoPowerJAX(probe='mpk_lin')
print(pklin_emulator.parameters)
cosmo_dict = {'omega_b': np.array([0.02242]), 'omega_cdm': np.array([0.11933]),
              'ln10^{10}A_s': np.array([3.047]), 'n_s': np.array([0.9665]),
              'h': np.array([0.6766]), 'z': np.array([0.0])}
k = np.linspace(1e-4, 0.4, 5)
bias_dict = {'b1': np.array([1.2])}
pshot = 0.
print(np.round(np.asarray(get_pgg(cosmo_dict, bias_dict, pshot, k)), 4).tolist())
jac = jax.jacfwd(get_pgg, argnums=[0, 1])(cosmo_dict, bias_dict, pshot, k)
print(np.round(np.asarray(jac[0]['h']), 4).tolist())
print(np.round(np.asarray(jac[1]['b1']), 4).tolist())
