# Fixed-step rollout of a linear decay using lax.scan, with the number of steps
# passed in as an ordinary (traced) argument of the jitted function.
import jax
import jax.numpy as jnp
from functools import partial


@partial(jax.jit, static_argnames=("num_steps",))
def rollout(x0, num_steps, decay=0.9):
    def step(c, _):
        c = c * decay
        return c, c

    final, traj = jax.lax.scan(step, x0, (), length=num_steps)
    return final, traj


final, traj = rollout(jnp.array(1.0), num_steps=4)
print(round(float(final), 4), [round(float(v), 4) for v in traj])
