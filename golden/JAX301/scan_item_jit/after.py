# length=n.item() inside jit; the body is a module-level def also used on its own,
# so the fori_loop calls it as scan would: body(c, None)[0].
import jax
import jax.numpy as jnp


def double(c, _):
    return c * 2.0, None


@jax.jit
def grow(x, n):
    carry = jax.lax.fori_loop(0, n, lambda _, c: double(c, None)[0], x)
    return carry


print(grow(jnp.ones(3), jnp.array(3)))
print(double(jnp.ones(2), None)[0])
