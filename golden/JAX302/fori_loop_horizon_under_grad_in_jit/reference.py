# Gradient-based trajectory optimisation (in the spirit of jax/examples/control.py)
# where the rollout is a lax.fori_loop over the horizon T.
from collections import namedtuple
from functools import partial

import jax
import jax.numpy as np
from jax import lax

ControlSpec = namedtuple("ControlSpec", ["A", "B", "Q", "R"])

spec = ControlSpec(
    A=np.array([[1.0, 0.1], [0.0, 1.0]]),
    B=np.array([[0.0], [0.1]]),
    Q=np.eye(2),
    R=0.1 * np.eye(1),
)


def rollout_cost(U, x0, T):
    def body(t, carry):
        x, cost = carry
        u = U[t]
        cost = cost + x @ spec.Q @ x + u @ spec.R @ u
        x = spec.A @ x + spec.B @ u
        return x, cost

    x_final, cost = lax.fori_loop(0, T, body, (x0, 0.0))
    return cost + 10.0 * x_final @ x_final


@partial(jax.jit, static_argnums=2)
def gd_step(U, x0, T, lr=0.05):
    g = jax.grad(rollout_cost)(U, x0, T)
    return U - lr * g


T = 20
x0 = np.array([1.0, 0.0])
U = np.zeros((T, 1))
for it in range(50):
    U = gd_step(U, x0, T)
print("final cost:", round(float(rollout_cost(U, x0, T)), 4))
print("first controls:", [round(float(u), 4) for u in U[:3, 0]])
