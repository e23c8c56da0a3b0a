import jax.numpy as jnp


def main():
    x = jnp.arange(4.0) * 0.5
    print(jnp.stack([x + w for w in (1, 2, 3)]).sum())


if __name__ == "__main__":
    main()
