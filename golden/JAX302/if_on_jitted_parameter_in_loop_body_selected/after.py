import jax
import jax.numpy as jnp


def decode(logits, temperature=0.0):
    def step(i, total):
        token = jnp.where(temperature > 0.0, jnp.argmax(logits / temperature + i), jnp.argmax(logits))
        return total + token

    return jax.lax.fori_loop(0, 3, step, 0)


temperatures = jnp.array([0.0, 0.7])
compiled = jax.jit(decode)
logits = jnp.array([0.1, 0.5, 0.2])
print(int(compiled(logits, temperatures[0])), int(compiled(logits, temperatures[1])))
