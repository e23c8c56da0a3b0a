# Cut down from https://github.com/jax-ml/jax/issues/2300
# RNN-like dynamics with a time dependence: evolve linearly until step t2,
# then clamp to a constant parameter array u.  Differentiated in reverse mode,
# so the loop is written with lax.scan over the step index.
import jax.numpy as np
from jax import grad, jit, lax

n_steps = 10
t2 = 4
a = np.eye(3) * 0.9 + 0.05
u = np.array([1.0, -1.0, 0.5])


def f(carry, step):
    x = lax.cond(step < t2, lambda c: a.dot(c), lambda c: u, carry)
    return x, x


def rollout(x0):
    carry, xs = lax.scan(f, x0, np.arange(n_steps))
    return carry, xs


def loss(x0):
    _, xs = rollout(x0)
    return np.sum(xs ** 2)


x0 = np.array([1.0, 2.0, 3.0])
print(round(float(jit(loss)(x0)), 4))
print([round(float(v), 4) for v in grad(loss)(x0)])
