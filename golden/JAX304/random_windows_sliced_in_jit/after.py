import jax
import jax.numpy as jnp

WINDOW = 5


@jax.jit
def sample_windows(key, series):
    starts = jax.random.randint(key, (3,), 0, series.shape[0] - WINDOW - 1)
    inputs = jnp.stack([jax.lax.dynamic_slice_in_dim(series, s, WINDOW) for s in starts])
    targets = jnp.stack([series[s + WINDOW] for s in starts])
    return inputs, targets


series = jnp.sin(jnp.linspace(0.0, 6.0, 40))
inputs, targets = sample_windows(jax.random.PRNGKey(1), series)
print(inputs.shape, targets.shape, jnp.round(inputs.sum() + targets.sum(), 4))
