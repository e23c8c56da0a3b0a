# The shape written as the tuple jnp expects, with no jit at all.
import jax.numpy as jnp


def main():
    out = jnp.arange(6).reshape((2, 3)) * 0.5
    print(out.shape, [[float(v) for v in row] for row in out])


main()
