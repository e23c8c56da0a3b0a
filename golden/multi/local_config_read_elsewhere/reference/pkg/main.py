import jax.numpy as jnp

if __name__ == "__main__":
    from pkg.report import describe

    print(jnp.ones(2) * 2.0 + 1.0)
    print(describe())
