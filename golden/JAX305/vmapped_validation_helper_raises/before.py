import jax
import jax.numpy as jnp


def is_valid(probabilities):
    return jnp.all(probabilities >= 0)


def entropy(logits):
    probabilities = jax.nn.softmax(logits)
    if not is_valid(probabilities):
        raise ValueError("negative probability")
    return -jnp.sum(probabilities * jnp.log(probabilities))


batch = jnp.array([[0.0, 1.0, 2.0], [1.0, 1.0, 1.0]])
print(jax.vmap(entropy)(batch))
