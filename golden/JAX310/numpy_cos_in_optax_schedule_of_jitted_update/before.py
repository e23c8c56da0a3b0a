# Cut down from https://github.com/netket/netket/issues/908
# SGD with warm restarts written as a learning-rate schedule; the driver jits
# the parameter update (netket's apply_gradient, optimizer update fn is static).
from functools import partial
from math import pi

import jax
import jax.numpy as jnp
import numpy as np
import optax

η = 0.05


def schedule(n):
    restart = 100
    return (1 + np.cos(pi * (n % restart) / restart)) * η


@partial(jax.jit, static_argnums=0)
def apply_gradient(optimizer_fun, optimizer_state, dp, params):
    updates, new_optimizer_state = optimizer_fun(dp, optimizer_state, params)
    new_params = optax.apply_updates(params, updates)
    return new_optimizer_state, new_params


class VMC:
    def __init__(self, params, optimizer):
        self._optimizer = optimizer
        self.params = params
        self._optimizer_state = optimizer.init(params)

    def _forward_and_backward(self):
        energy = lambda p: jnp.sum((p["w"] - 1.0) ** 2) + jnp.sum(p["b"] ** 2)
        return jax.grad(energy)(self.params)

    def run(self, n_iter):
        for _ in range(n_iter):
            dp = self._forward_and_backward()
            self._optimizer_state, self.params = apply_gradient(
                self._optimizer.update, self._optimizer_state, dp, self.params
            )
        return self.params


op = optax.sgd(schedule)
gs = VMC({"w": jnp.zeros(3), "b": jnp.ones(2)}, op)
params = gs.run(n_iter=30)
print([round(float(v), 4) for v in params["w"]], [round(float(v), 4) for v in params["b"]])
