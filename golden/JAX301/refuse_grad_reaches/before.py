# jax.grad reaches the loop: a fori_loop with a traced count cannot be
# differentiated in reverse mode, so this is only reported.
import jax
import jax.numpy as jnp


def run(x, n):
    def step(c, _):
        return c * x, None

    return jax.lax.scan(step, 1.0, None, length=int(n))[0]


def loss(x, n):
    return run(x, n) ** 2


print(jax.jit(jax.grad(loss))(2.0, jnp.array(3)))
