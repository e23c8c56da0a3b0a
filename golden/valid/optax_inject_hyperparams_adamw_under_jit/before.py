import jax
import jax.numpy as jnp
import numpy as np
import optax

optimizer = optax.inject_hyperparams(optax.adamw)(learning_rate=0.1, weight_decay=1e-3)
params = {"w": jnp.ones((4, 4)), "b": jnp.ones((4,))}
grads = {"w": jnp.full((4, 4), 0.5), "b": jnp.full((4,), 0.25)}

opt_state = jax.jit(optimizer.init)(params)
opt_state.hyperparams["learning_rate"] = 0.05
updates, opt_state = jax.jit(optimizer.update)(grads, opt_state, params)
params = optax.apply_updates(params, updates)
print(np.round(float(params["w"][0, 0]), 4), np.round(float(params["b"][0]), 4))
