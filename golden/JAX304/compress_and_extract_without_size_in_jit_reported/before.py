import jax
import jax.numpy as jnp

t = jnp.ones((4, 4), dtype=jnp.float32)


def f(x):
    return jnp.compress(x.ravel() > 0, x.ravel())


def g(x):
    return jnp.extract(x > 0, x)


print(f(t).shape, g(t).shape)    # eager: (16,) (16,)

out_f = jax.jit(f)(t)            # crashes under jit
out_g = jax.jit(g)(t)
print(out_f.shape, round(float(out_f.sum()), 4))
print(out_g.shape, round(float(out_g.sum()), 4))
