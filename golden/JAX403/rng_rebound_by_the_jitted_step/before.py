# Cut down from google/flax#2410: a train step jitted by assignment with the PRNG key
# marked static; the loop rebinds the key from the step's own result.
import jax
import jax.numpy as jnp


def train_step(state, rng, batch):
    params, step = state
    x, y = batch
    rng, dropout_rng = jax.random.split(rng)

    def loss_fn(p):
        keep = jax.random.bernoulli(dropout_rng, 0.8, x.shape)
        pred = (jnp.where(keep, x, 0.0) / 0.8) @ p
        return jnp.mean((pred - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    return (params - 0.1 * grads, step + 1), rng, loss


train_step = jax.jit(train_step, static_argnums=(1,))

state = (jnp.zeros(3), 0)
rng = jax.random.PRNGKey(42)
x = jnp.arange(12.0).reshape(4, 3) / 10.0
y = jnp.array([1.0, 2.0, 3.0, 4.0])
for _ in range(3):
    state, rng, loss = train_step(state, rng, (x, y))
print(round(float(loss), 4), int(state[1]))
