import jax.numpy as jnp

from pkg import configs
from pkg.model import apply


def main():
    print(apply(jnp.ones(3), configs.CONFIG))
    print(configs.CONFIG["name"], len(configs.CONFIG["layers"]))


if __name__ == "__main__":
    main()
