# def grow, then grow = jax.jit(grow, static_argnums=()); called from a function.
import jax
import jax.numpy as jnp


def grow(x, n):
    c, ys = jax.lax.scan(lambda c, _: (c * 2, c), x, None, length=n)
    return ys


grow = jax.jit(grow, static_argnums=(1,))


def main():
    print(grow(jnp.ones(1), 3))


main()
