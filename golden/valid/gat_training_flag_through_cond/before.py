# Inspired by gcucurull/jax-gat (models.py / train.py): the `is_training` flag
# travels inside the `batch` tuple, so it is a *traced* boolean inside the
# jitted loss. The Dropout layer therefore selects with lax.cond instead of a
# Python `if`, which is correct under jit.
import jax.numpy as np
from jax import jit, lax, random


def Dropout(rate):
    """Dropout whose `is_training` is an argument of apply_fun (rate = keep prob)."""
    def init_fun(rng, input_shape):
        return input_shape, ()

    def apply_fun(params, inputs, is_training, **kwargs):
        rng = kwargs.get('rng', None)
        keep = random.bernoulli(rng, rate, inputs.shape)
        outs = np.where(keep, inputs / rate, 0)
        # if not training, just return inputs and discard any computation done
        out = lax.cond(is_training, lambda _: outs, lambda _: inputs, None)
        return out
    return init_fun, apply_fun


_, drop_fun = Dropout(0.5)


def predict_fun(params, inputs, is_training, rng):
    W = params
    h = drop_fun(None, inputs, is_training=is_training, rng=rng)
    return np.dot(h, W)


@jit
def loss(params, batch):
    inputs, targets, is_training, rng = batch
    preds = predict_fun(params, inputs, is_training=is_training, rng=rng)
    return np.mean((preds - targets) ** 2)


params = np.ones((4, 2)) * 0.5
inputs = np.arange(12.0).reshape(3, 4) / 10.
targets = np.ones((3, 2))
rng_key = random.PRNGKey(0)

train_batch = (inputs, targets, True, rng_key)
eval_batch = (inputs, targets, False, rng_key)
print("eval loss:", round(float(loss(params, eval_batch)), 4))
print("train loss is finite:", bool(np.isfinite(loss(params, train_batch))))
