# The middle of the chain calls the program's own function: the element-wise rewrite would
# call it twice, so the chain is reported, with the way to write it.
import jax
import jax.numpy as jnp

calls = []


def offset():
    calls.append(1)  # a side effect: calling it twice is not the same as once
    return 0.25


def in_band(x):
    return 0.5 < jnp.sum(x**2) + offset() < 2.0


print(jax.vmap(in_band)(jnp.array([[0.5, 0.5], [1.0, 1.0], [2.0, 0.0]])).tolist())
