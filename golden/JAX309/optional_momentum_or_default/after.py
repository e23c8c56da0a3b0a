# Adapted from google/objax PR #92 ("Override default momentum"): the Momentum optimizer
# gained an optional `momentum` override. objax is not installed; the optimizer and its
# unit test are re-expressed with plain jax (jitted method, self static).
from functools import partial
from typing import List, Optional

import jax
import jax.numpy as jn
import numpy as np


class Momentum:
    """Momentum optimizer."""

    def __init__(self, params, momentum: float = 0.9, nesterov: bool = False):
        self.momentum = momentum
        self.nesterov = nesterov
        self.m = [jn.zeros_like(p) for p in params]

    @partial(jax.jit, static_argnums=0)
    def _apply(self, lr: float, grads: List[jn.ndarray], params, m, momentum: Optional[float] = None):
        assert len(grads) == len(params), 'Expecting as many gradients as trainable variables'
        momentum = self.momentum if momentum is None else momentum
        new_p, new_m = [], []
        for g, p, mv in zip(grads, params, m):
            mv = g + momentum * mv
            if self.nesterov:
                p = p - lr * (g + momentum * mv)
            else:
                p = p - lr * mv
            new_p.append(p)
            new_m.append(mv)
        return new_p, new_m

    def __call__(self, lr, grads, params, momentum=None):
        params, self.m = self._apply(lr, grads, params, self.m, momentum)
        return params


def square_loss(params, x, y):
    w, b = params
    return jn.mean((x @ w + b - y) ** 2)


def _check_run(opt, params, x, y, lr, num_steps, momentum):
    gv = jax.jit(jax.value_and_grad(square_loss))
    for _ in range(num_steps):
        loss, grads = gv(params, x, y)
        params = opt(lr, grads, params, momentum)
    return float(square_loss(params, x, y))


rng = np.random.default_rng(0)
x = jn.asarray(rng.normal(size=(64, 3)), dtype=jn.float32)
y = x @ jn.array([1.0, -2.0, 0.5]) + 0.3
params = [jn.zeros(3), jn.zeros(())]

for name, override in [("square_momentum", None), ("square_momentum_override", 0.05)]:
    opt = Momentum(params, momentum=0.9)
    final = _check_run(opt, params, x, y, lr=0.05, num_steps=50, momentum=override)
    print(name, round(final, 5))
