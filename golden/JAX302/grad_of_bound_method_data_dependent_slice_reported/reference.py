from functools import partial

import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self, lr):
        self.lr = lr

    def loss(self, w, out, gt):
        steps = jnp.arange(out.shape[0])
        total = 0.0
        for i in range(out.shape[1]):
            keep = steps >= gt[i]
            total = total + jnp.where(keep, (w * out[:, i] - 1.0) ** 2, 0.0).sum()
        return total

    @partial(jax.jit, static_argnums=(0,))
    def f_train(self, w, out, gt):
        l, g = jax.value_and_grad(self.loss)(w, out, gt)
        return w - self.lr * g, l


out = jnp.linspace(0.0, 1.0, 12).reshape(6, 2)
w, l = Trainer(0.1).f_train(1.0, out, jnp.array([1, 3]))
print(round(float(w), 5), round(float(l), 5))
