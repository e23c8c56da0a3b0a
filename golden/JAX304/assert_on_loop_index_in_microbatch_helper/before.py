# Gradient accumulation helper in the style of scenic's train_utils
# (scenic commit a69dfe0): a sanity assert inside the micro-batch fetcher.
import functools
from typing import Any, Callable, Dict, Optional, Tuple

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state as ts

TrainState = ts.TrainState


def accumulate_gradients(
    compute_gradient_fn: Callable,
    metrics_fn: Callable,
    train_state: TrainState,
    batch: Dict[str, jnp.ndarray],
    dropout_rng: jnp.ndarray,
    accum_steps: Optional[int]
) -> Tuple[Any, jnp.ndarray, Dict[str, Tuple[float, int]]]:
  """Accumulate gradients over multiple steps."""
  params = train_state.params
  if accum_steps and accum_steps > 1:
    batch_size = next(iter(batch.values())).shape[0]
    microbatch_size = batch_size // accum_steps
    if batch_size % accum_steps != 0:
      raise ValueError(
          f'Bad accum_steps {accum_steps} for batch size {batch_size}')

    def get_microbatch(batch: Dict[str, jnp.ndarray],
                       idx: int) -> Dict[str, jnp.ndarray]:
      """Fetch microbatch slice from the given batch."""
      assert microbatch_size * idx < batch_size
      return jax.tree_util.tree_map(
          lambda x: x.reshape((-1, microbatch_size) + x.shape[1:])[idx], batch)

    def per_microbatch_compute_gradient_fn(loop_cnt, loop_state):
      dropout_rng, grad_accum, train_loss_acc, metrics_acc = loop_state
      dropout_rng, sub_dropout_rng = jax.random.split(dropout_rng)
      mbatch = get_microbatch(batch, loop_cnt)
      (train_loss, logits), grad = compute_gradient_fn(params, mbatch,
                                                       sub_dropout_rng)
      metrics = metrics_fn(logits, mbatch)
      grad = jax.tree_util.tree_map(jnp.add, grad_accum, grad)
      metrics = jax.tree_util.tree_map(jnp.add, metrics, metrics_acc)
      train_loss = train_loss + train_loss_acc
      return dropout_rng, grad, train_loss, metrics

    dropout_rng, sub_dropout_rng = jax.random.split(dropout_rng)
    init_mbatch = get_microbatch(batch, 0)
    (init_train_loss, init_logits), grad_init = compute_gradient_fn(
        params, init_mbatch, sub_dropout_rng)
    metrics_init = metrics_fn(init_logits, init_mbatch)

    loop_init = (dropout_rng, grad_init, init_train_loss, metrics_init)
    _, grad_acc, train_loss, metrics_acc = jax.lax.fori_loop(
        1, accum_steps, per_microbatch_compute_gradient_fn, loop_init)
    grad_acc = jax.tree_util.tree_map(lambda x: x / accum_steps, grad_acc)
    return grad_acc, train_loss / accum_steps, metrics_acc
  else:
    (train_loss, logits), grad = compute_gradient_fn(params, batch, dropout_rng)
    return grad, train_loss, metrics_fn(logits, batch)


class MLP(nn.Module):
  @nn.compact
  def __call__(self, x, train=True):
    x = nn.relu(nn.Dense(16)(x))
    return nn.Dense(3)(x)


def metrics_fn(logits, batch):
  correct = jnp.sum(jnp.argmax(logits, -1) == batch['label'])
  return {'accuracy': (correct, batch['label'].shape[0])}


def train_step(train_state, batch, dropout_rng, accum_steps):
  def training_loss_fn(params, mbatch, rng):
    logits = train_state.apply_fn({'params': params}, mbatch['inputs'])
    onehot = jax.nn.one_hot(mbatch['label'], 3)
    loss = optax.softmax_cross_entropy(logits, onehot).mean()
    return loss, logits

  compute_gradient_fn = jax.value_and_grad(training_loss_fn, has_aux=True)
  grad, loss, metrics = accumulate_gradients(
      compute_gradient_fn, metrics_fn, train_state, batch, dropout_rng,
      accum_steps)
  return train_state.apply_gradients(grads=grad), loss, metrics


model = MLP()
key = jax.random.PRNGKey(0)
inputs = jax.random.normal(key, (32, 5))
batch = {'inputs': inputs, 'label': (inputs[:, 0] > 0).astype(jnp.int32) +
         (inputs[:, 1] > 0).astype(jnp.int32)}
params = model.init(key, inputs[:1])['params']
state = TrainState.create(apply_fn=model.apply, params=params,
                          tx=optax.sgd(0.1))

train_step_pmapped = jax.jit(functools.partial(train_step, accum_steps=4))
for i in range(5):
  state, loss, metrics = train_step_pmapped(state, batch,
                                            jax.random.fold_in(key, i))
correct, total = metrics['accuracy']
print("loss:", round(float(loss), 4))
print("accuracy:", int(correct), "/", int(total))
