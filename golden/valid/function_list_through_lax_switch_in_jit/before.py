import jax
import jax.numpy as jnp


def fun_a(x):
    print('a')
    return x + 1.0


def fun_b(x):
    print('b')
    return x * 2.0


def fun_c(x):
    print('c')
    return jnp.sin(x)


functions_list = [fun_a, fun_b, fun_c]


@jax.jit
def apply(index, x):
    # the function is picked from the Python list by a *traced* index
    return jax.lax.switch(index, functions_list, x)


x = jnp.array([0.5, 1.5])
for i in range(3):
    print([round(float(v), 4) for v in apply(i, x)])
print([round(float(v), 4) for v in jax.lax.switch(0, functions_list, x)])
