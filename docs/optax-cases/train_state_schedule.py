"""flax's TrainState.apply_gradients runs the optimizer's update, so under jit it hands a schedule a tracer.

Run: cd docs/optax-cases && JAX_PLATFORMS=cpu python train_state_schedule.py
flax#1903's triangular schedule branches with a Python `if` on the step; the TrainState is
stepped once eagerly and once in a jitted step, and the schedule records the type it is given.
"""
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state

seen = []


def schedule(step):
    seen.append(type(step).__name__)
    if step % 4 < 2:  # flax#1903's `if cycle_step < top:`
        return 0.1
    return 0.01


def where_schedule(step):
    seen.append(type(step).__name__)
    return jnp.where(step % 4 < 2, 0.1, 0.01)


params = {"w": jnp.ones(3)}
grads = {"w": jnp.full(3, 0.5)}
for name, fn in (("if", schedule), ("jnp.where", where_schedule)):
    for label, step in (("eager", lambda s: s.apply_gradients(grads=grads)), ("jit", jax.jit(lambda s: s.apply_gradients(grads=grads)))):
        seen.clear()
        state = train_state.TrainState.create(apply_fn=None, params=params, tx=optax.sgd(fn))
        try:
            for _ in range(3):
                state = step(state)
            print(f"{name}, {label}: OK, step is {'/'.join(sorted(set(seen)))}, w = {[round(float(v), 4) for v in state.params['w']]}")
        except Exception as error:  # noqa: BLE001
            print(f"{name}, {label}: {type(error).__name__}, step is {'/'.join(sorted(set(seen)))}")
