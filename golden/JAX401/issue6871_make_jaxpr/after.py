# jax-ml/jax#6871: make_jaxpr of a function jitted with a static argument.
import jax


def my_func(x, y):
    return x + y


jit_func = jax.jit(my_func, static_argnames={"y"})
print(jax.make_jaxpr(jit_func, static_argnums=(1,))(1, 2))
