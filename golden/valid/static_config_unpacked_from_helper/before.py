# A helper returns the static config and the state together (evosax's init_strategy
# style); the config unpacked from it is a tuple of Python ints, which hashes.
import jax
import jax.numpy as jnp


def init_strategy(num_dims, population_size):
    sizes = (population_size, num_dims)
    memory = {"mean": jnp.zeros(num_dims), "sigma": 0.5}
    return sizes, memory


def ask(rng, memory, sizes):
    z = jax.random.normal(rng, sizes)
    return memory["mean"] + memory["sigma"] * z


ask_jit = jax.jit(ask, static_argnums=(2,))
sizes, memory = init_strategy(3, population_size=4)
x = ask_jit(jax.random.PRNGKey(0), memory, sizes)
print(x.shape, round(float(x.mean()), 4))
