import jax
import jax.numpy as jnp
import numpy as np
import optax

optimizer = optax.inject_hyperparams(optax.adafactor)(learning_rate=0.1)

params = {'w': jnp.ones((200, 200)), 'b': jnp.ones((200,))}
grads = {'w': jnp.full((200, 200), 0.5), 'b': jnp.full((200,), 0.25)}

opt_state = jax.jit(optimizer.init)(params)
updates, opt_state = jax.jit(optimizer.update)(grads, opt_state, params)
params = optax.apply_updates(params, updates)
print(np.round(float(params['w'][0, 0]), 4), np.round(float(params['b'][0]), 4))
