"""Seed 001: a dict passed as a static argument (fails: dicts are not hashable)."""
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

config = {
    "fn": r_fn,
    "more_stuff": ...,
}


@partial(jax.jit, static_argnames=("config",))
def f(vals, config):
    return config["fn"](vals)["B"].sum()


print(round(float(f(vals, config)), 4))
