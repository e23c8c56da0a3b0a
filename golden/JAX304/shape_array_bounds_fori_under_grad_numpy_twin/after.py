"""A rollout cost whose horizon is read from the controls' shape through jnp, differentiated under jit."""
import jax
import jax.numpy as jnp
import numpy as np


def rollout_cost(controls, x0):
    horizon = np.array(controls.shape)[0]

    def step(t, x):
        return 0.9 * x + controls[t]

    x_final = jax.lax.fori_loop(0, horizon, step, x0)
    return jnp.sum(x_final ** 2)


controls = jnp.linspace(0.0, 1.0, 12).reshape(6, 2)
x0 = jnp.array([1.0, -1.0])
grad_fn = jax.jit(jax.grad(rollout_cost))
print("cost", float(rollout_cost(controls, x0)))
print("grad", jnp.round(grad_fn(controls, x0), 4))
