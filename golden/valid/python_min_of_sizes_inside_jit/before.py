# A schedule's warm-up length and a batch slice computed with Python's min() inside a jitted step,
# on sizes only (scenic's polynomial schedule clamps a traced step instead; here every operand of
# min is a Python int, so it works, and jnp.minimum would break the slice).
import jax
import jax.numpy as jnp

WARMUP = 5


@jax.jit
def train_step(params, batch):
    n = min(batch.shape[0], 4)
    head = batch[:n]
    warm = max(WARMUP, 1)
    return params - 0.1 / warm * head.mean(axis=0)


params = jnp.ones(3)
for i in range(3):
    params = train_step(params, jnp.arange(18.0).reshape(6, 3) * (i + 1))
print([round(float(p), 4) for p in params])
