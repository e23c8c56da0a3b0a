# Valid look-alike in the setting of jax-ml/jax discussion #19020: eval_shape
# of a function that is already jitted with static_argnums honours the jit's
# static arguments (jax 0.10 traces a PjitFunction through its own .trace).
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def make_grid(x, num_steps):
    ts = jnp.linspace(0., 1., num_steps + 1)
    return x[:, None] * ts[None, :]


out = jax.eval_shape(make_grid, jax.ShapeDtypeStruct((4,), jnp.float32), 10)
print(out.shape, out.dtype)
