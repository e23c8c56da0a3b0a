import jax
import jax.numpy as jnp

t = jnp.ones((4, 4), dtype=jnp.float32)


# Under jit the output size cannot depend on the data: give an explicit static
# upper bound (here every element may be selected) and a fill value.
def f(x):
    return jnp.compress(x.ravel() > 0, x.ravel(), size=x.size, fill_value=0)


def g(x):
    return jnp.extract(x > 0, x, size=x.size, fill_value=0)


print(f(t).shape, g(t).shape)

out_f = jax.jit(f)(t)
out_g = jax.jit(g)(t)
print(out_f.shape, round(float(out_f.sum()), 4))
print(out_g.shape, round(float(out_g.sum()), 4))
