import jax.numpy as jnp


def main():
    N = 3
    x = jnp.arange(20.0).reshape(4, 5)
    print((x.reshape((1, 4, 5)) * jnp.ones((N, 4, 5))).sum(axis=0))
    print(jnp.zeros((N, 4, 5)).shape)


if __name__ == "__main__":
    main()
