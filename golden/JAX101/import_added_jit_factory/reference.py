import jax.numpy as jnp


def main():
    print(jnp.full((3,), 7.0))
    print(jnp.zeros((3,)) * 7.0)


if __name__ == "__main__":
    main()
