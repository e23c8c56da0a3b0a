import jax.numpy as jnp


def main():
    N = 3
    x = jnp.ones((4, 5))
    answer = x.reshape((1, 4, 5)) * jnp.ones((N, 4, 5))
    print(answer.shape, float(answer.sum()))


main()
