import jax.numpy as jnp
import optax
from flax.training import train_state


def create_triangular_schedule(lr_min, lr_max, steps_per_cycle):
    top = (steps_per_cycle + 1) // 2

    def learning_rate_fn(step):
        cycle_step = step % steps_per_cycle
        if cycle_step < top:
            lr = lr_min + cycle_step / top * (lr_max - lr_min)
        else:
            lr = lr_max - ((cycle_step - top) / top) * (lr_max - lr_min)
        return lr

    return learning_rate_fn


schedule = create_triangular_schedule(0.01, 0.1, 4)
state = train_state.TrainState.create(apply_fn=None, params={"w": jnp.ones(2)}, tx=optax.sgd(schedule))
for _ in range(3):  # stepped eagerly: optax hands the schedule a concrete array
    state = state.apply_gradients(grads={"w": jnp.full(2, 0.5)})
print([round(float(v), 4) for v in state.params["w"]])
