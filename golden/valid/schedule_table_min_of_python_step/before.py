# scenic's learning-rate table (commit da0a6a3) evaluated in Python for a printed schedule: the
# step is a Python int, so min() works; the jitted step receives the rate as an array.
import jax
import jax.numpy as jnp


def polynomial(step, decay_steps, power):
    step = min(decay_steps, step)
    return (1 - step / decay_steps) ** power


def lr_fns():
    return {"constant": lambda step, **kw: 1.0, "polynomial": polynomial}


@jax.jit
def train_step(params, lr):
    return params - lr * 2.0 * params


params = jnp.ones(2)
for step in range(0, 150, 50):
    lr = 0.1 * lr_fns()["polynomial"](step, decay_steps=100, power=2.0)
    params = train_step(params, lr)
    print(step, round(lr, 5))
print([round(float(p), 5) for p in params])
