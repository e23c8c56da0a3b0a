import jax
import jax.numpy as jnp

from pkg import run_false
from pkg.branches import run_true


def main():
    N = 3
    x = jnp.arange(20.0).reshape(4, 5)
    print(jax.lax.cond(True, run_true, run_false, N, x).sum(axis=0))
    print(jax.lax.cond(False, run_true, run_false, N, x).shape)


if __name__ == "__main__":
    main()
