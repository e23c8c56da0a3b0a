import jax.numpy as jnp

import pkg.model as model
from frozendict import frozendict


def main():
    config = frozendict({"scale": 0.5, "widths": (1, 2, 3)})
    print(model.apply(jnp.arange(4.0), config))


if __name__ == "__main__":
    main()
