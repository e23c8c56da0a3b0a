# The closure answer from the seed 001 thread: bind the config before jitting, once.
import jax
from functools import partial
from string import ascii_uppercase
from jax.flatten_util import ravel_pytree

n_elements = 10
key = jax.random.PRNGKey(314159)
key_length, key_vals = jax.random.split(key)
keys_vals = jax.random.split(key_vals, n_elements)

letters = ascii_uppercase[:n_elements]
lengths = jax.random.choice(key_length, 20, (n_elements,))

elements = {
    letter: jax.random.normal(key, (int(length),))
    for letter, key, length in zip(letters, keys_vals, lengths)
}

vals, r_fn = ravel_pytree(elements)

config = {"fn": r_fn, "more_stuff": ...}


def f(vals, config):
    return config["fn"](vals)["B"].sum()


f_configured = jax.jit(partial(f, config=config))
print(round(float(f_configured(vals)), 4))
