# Cut down from the Flax "learning rate schedule" HOWTO (google/flax PR #1903):
# a triangular cyclical schedule written with a Python `if` on the step count.
import jax
import jax.numpy as jnp
import numpy as np
import optax
import flax.linen as nn
from flax.training import train_state


def create_triangular_schedule(lr_min, lr_max, steps_per_cycle):
  """Return fn from epoch to LR, linearly interpolating between `lr_min`->`lr_max`->`lr_min`."""
  top = (steps_per_cycle + 1) // 2
  def learning_rate_fn(step):
    cycle_step = step % steps_per_cycle
    lr = jnp.where(cycle_step < top,
                   lr_min + cycle_step/top * (lr_max - lr_min),
                   lr_max - ((cycle_step - top)/top) * (lr_max - lr_min))
    return lr
  return learning_rate_fn


class CNN(nn.Module):
  @nn.compact
  def __call__(self, x):
    x = nn.Dense(features=8)(x)
    x = nn.relu(x)
    return nn.Dense(features=3)(x)


def cross_entropy_loss(logits, labels):
  return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()


@jax.jit
def train_step(state, batch):
  def loss_fn(params):
    logits = CNN().apply({'params': params}, batch['image'])
    loss = cross_entropy_loss(logits, batch['label'])
    return loss, logits
  grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
  (loss, _), grads = grad_fn(state.params)
  state = state.apply_gradients(grads=grads)
  return state, loss


def main():
  rng = np.random.RandomState(0)
  train_ds = {'image': rng.randn(32, 5).astype(np.float32),
              'label': rng.randint(0, 3, size=(32,)).astype(np.int32)}
  batch_size = 8
  steps_per_epoch = len(train_ds['image']) // batch_size
  # If you want 4 cycles per epoch
  learning_rate_fn = create_triangular_schedule(3e-3, 3e-2, steps_per_epoch // 2)
  params = CNN().init(jax.random.PRNGKey(0), jnp.ones((1, 5)))['params']
  state = train_state.TrainState.create(
      apply_fn=CNN().apply, params=params, tx=optax.sgd(learning_rate_fn))
  losses = []
  for i in range(steps_per_epoch):
    batch = {k: v[i * batch_size:(i + 1) * batch_size] for k, v in train_ds.items()}
    state, loss = train_step(state, batch)
    losses.append(float(loss))
  print("steps:", int(state.step))
  print("losses:", [round(l, 3) for l in losses])


if __name__ == "__main__":
  main()
