# Looks like jax#2300 (a Python conditional on the step inside a scan body), but the
# conditional tests `clamp`, a Python bool the body closes over: it is decided while tracing.
import jax.numpy as np
from jax import jit, lax

n_steps = 10
a = np.eye(3) * 0.9 + 0.05
u = np.array([1.0, -1.0, 0.5])


def rollout(x0, clamp):
    def f(carry, step):
        x = u if clamp else a.dot(carry)
        return x, x * step

    return lax.scan(f, x0, np.arange(n_steps))


def loss(x0):
    _, xs = rollout(x0, False)
    return np.sum(xs ** 2)


print(round(float(jit(loss)(np.array([1.0, 2.0, 3.0]))), 4))
