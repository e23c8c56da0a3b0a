import jax.numpy as jnp

SCALE, LAYERS, NAME = 2.0, (4, 4), "small"


def main():
    x = jnp.ones(3)
    for width in LAYERS:
        x = jnp.tanh(x * SCALE) + width
    print(x.sum())
    print(NAME, len(LAYERS))


if __name__ == "__main__":
    main()
