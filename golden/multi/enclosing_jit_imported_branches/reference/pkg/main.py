import jax.numpy as jnp


def resize(n, x, flag):
    if flag:
        return jnp.concatenate([x, jnp.zeros(n)])
    return jnp.concatenate([x[::-1], jnp.ones(n)])


def main():
    print(resize(2, jnp.arange(3.0), True))
    print(resize(1, jnp.arange(3.0), False))


if __name__ == "__main__":
    main()
