# A generic gradient-descent step that takes the loss function as its first
# argument and is wrapped with jax.jit as a whole.
import jax
import jax.numpy as jnp
from jax import grad, jit


def loss(w, x, y):
    return jnp.mean((x * w - y) ** 2)


def gd_step(loss_fn, w, x, y, lr=0.1):
    return w - lr * grad(loss_fn)(w, x, y)


gd_step_jit = jit(gd_step)

x = jnp.array([1.0, 2.0, 3.0])
y = jnp.array([2.0, 4.0, 6.0])
w = jnp.array(0.0)
for _ in range(20):
    w = gd_step_jit(loss, w, x, y)
print(round(float(w), 4))
