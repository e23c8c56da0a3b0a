# The asker's own workaround: a plain Python if/else, no lax.cond.
import jax.numpy as jnp
import jax
from functools import partial
from jax import jit

def main():
    N = 3
    x = jnp.ones((4, 5))
    a = True

    if a:
        answer = run_true(N, x)
    else:
        answer = run_false(N, x)
    print(answer)


@partial(jit, static_argnames=["N"])
def run_true(N, x):
    return x.reshape((1, 4, 5)) * jnp.ones((N, 4, 5))

@partial(jit, static_argnames=["N"])
def run_false(N, x):
    return jnp.zeros((N, 4, 5))


if __name__ == "__main__":
    main()
