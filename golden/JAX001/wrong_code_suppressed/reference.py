import jax.numpy as jnp


def main():
    y = jnp.ones((3,)) * 2.0
    print(y.shape, float(y.sum()))


main()
