# Hand fix: trace a function that closes over the static value.
import jax


def my_func(x, y):
    return x + y


jit_func = jax.jit(my_func, static_argnames={"y"})
print(jax.make_jaxpr(lambda x: jit_func(x, 2))(1))
