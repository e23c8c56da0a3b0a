import jax.numpy as jnp

from .model import apply


def main():
    config = {"widths": [1, 2, 3]}
    print(apply(jnp.arange(4.0), config))


if __name__ == "__main__":
    main()
