# Scenic-style learning-rate schedule factory with a polynomial decay that
# clamps the step with Python's builtin min() (scenic commit da0a6a3).
import jax
import jax.numpy as jnp
from types import SimpleNamespace


def polynomial_lr_scheduler(step, decay_steps, end_factor, power):
  """Same behavior as tf.train.polynomial_decay."""
  step = jnp.minimum(decay_steps, step)
  decayed_learning_rate = (1 - end_factor) * (1 - step / decay_steps)**(
      power) + end_factor
  return decayed_learning_rate


def lr_fn_dict():
  return {
      'constant': lambda step, **kw: 1.0,
      'polynomial': polynomial_lr_scheduler,
  }


def get_learning_rate_fn(config):
  base_lr = config.lr_configs.base_learning_rate
  factor_name = config.lr_configs.factor
  kwargs = dict(config.lr_configs.kwargs)

  def step_fn(step):
    return base_lr * lr_fn_dict()[factor_name](step, **kwargs)

  return step_fn


config = SimpleNamespace(
    lr_configs=SimpleNamespace(
        base_learning_rate=0.1,
        factor='polynomial',
        kwargs={'decay_steps': 100, 'end_factor': 0.01, 'power': 2.0},
    ))
learning_rate_fn = get_learning_rate_fn(config)


@jax.jit
def train_step(params, step):
  lr = learning_rate_fn(step)
  grad = 2.0 * params          # gradient of ||params||^2
  return params - lr * grad, lr


params = jnp.ones(3)
lrs = []
for step in range(0, 150, 30):
  params, lr = train_step(params, step)
  lrs.append(round(float(lr), 5))
print("lrs:", lrs)
print("params:", [round(float(p), 5) for p in params])
