# Cut down from jax-ml/jax#24683 ("Bit and Boolean operands").
import jax
import jax.numpy as jnp


@jax.jit
def f1(x, a, b):
    return jax.lax.cond((a < x) & (x <= b),
                        lambda _: 666,
                        lambda _: 999,
                        None)

@jax.jit
def f2(x, a, b):
    return jax.lax.cond(jnp.logical_and((x > a), (x <= b)),
                        lambda _: 666,
                        lambda _: 999,
                        None)

@jax.jit
def f3(x, a, b):
    return jax.lax.cond((x > a) & (x <= b),
                        lambda _: 666,
                        lambda _: 999,
                        None)

for x in (jnp.array(1.), jnp.array(2.5)):
    a, b = 2., 3.
    print(f1(x, a, b).tolist(), f2(x, a, b).tolist(), f3(x, a, b).tolist())
