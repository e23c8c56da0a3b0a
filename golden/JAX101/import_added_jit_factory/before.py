"""jit used as a decorator factory, and no functools import yet: one is added."""
import jax
import jax.numpy as jnp


@jax.jit(static_argnames="size")
def fill(size, value):
    return jnp.full((size,), value)


@jax.jit(static_argnames="size")
def blank(size, value):
    return jnp.zeros((size,)) * value


def main():
    for flag in (True, False):
        print(jax.lax.cond(flag, fill, blank, 3, 7.0))


if __name__ == "__main__":
    main()
