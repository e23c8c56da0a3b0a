import equinox as eqx
import jax
import jax.numpy as jnp

key = jax.random.key(0)
m1 = eqx.nn.MLP(4, 4, 64, 2, jax.nn.gelu, key=key)


@eqx.filter_jit
def f(model, x):
    return model(x)


print(f(m1, jnp.arange(4)).round(4).tolist())
