# Look-alike of equinox#1150 that works: eqx.Partial binds the arguments, but
# it goes to vmap and grad, which do not hash the function, and to lax.scan
# only through a lambda, an ordinary function.
import equinox as eqx
import jax
import jax.numpy as jnp


def loss(w, x, scale):
    return scale * jnp.sum((w * x) ** 2)


def step(carry, x, rate):
    return carry * rate + x, carry


bound = eqx.Partial(loss, scale=0.5)
xs = jnp.arange(3.0)
print(jax.vmap(bound, in_axes=(None, 0))(2.0, xs))
print(jax.grad(bound)(1.0, xs))
decay = eqx.Partial(step, rate=0.5)
print(jax.lax.scan(lambda c, x: decay(c, x), 0.0, xs)[0])
