# Looks like netket#908 (NumPy in a learning-rate schedule), but the optimizer's update only
# runs eagerly: optax hands the schedule a concrete jax array, which NumPy converts.
from math import pi

import jax
import jax.numpy as jnp
import numpy as np
import optax


def schedule(n):
    restart = 100
    return (1 + np.cos(pi * (n % restart) / restart)) * 0.05


def loss(p):
    return jnp.sum((p["w"] - 1.0) ** 2)


opt = optax.sgd(schedule)
params = {"w": jnp.zeros(3)}
state = opt.init(params)
for _ in range(20):
    grads = jax.grad(loss)(params)
    updates, state = opt.update(grads, state, params)
    params = optax.apply_updates(params, updates)
print([round(float(v), 4) for v in params["w"]])
