# jax#1879: minibatch SGD inside one jitted function. The static batch size is
# threaded through the fori_loop carry with the parameters, so in the body it
# is a tracer, and dynamic_slice needs its size concrete.
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames=("batch", "epochs"))
def train(w, xs, ys, batch, epochs, lr=0.1):
    n_batches = xs.shape[0] // batch

    def step(i, carry):
        w, lr = carry
        start = (i % n_batches) * batch
        xb = lax.dynamic_slice_in_dim(xs, start, batch)
        yb = lax.dynamic_slice_in_dim(ys, start, batch)
        g = jax.grad(lambda w: jnp.mean((xb @ w - yb) ** 2))(w)
        return w - lr * g, lr

    w, _ = lax.fori_loop(0, epochs * n_batches, step, (w, lr))
    return w


xs = jnp.stack([jnp.linspace(0.0, 1.0, 16), jnp.ones(16)], axis=1)
ys = xs @ jnp.array([2.0, -1.0])
print(jnp.round(train(jnp.zeros(2), xs, ys, batch=4, epochs=50), 3))
