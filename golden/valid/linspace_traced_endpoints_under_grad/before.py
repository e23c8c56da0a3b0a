import jax
import jax.numpy as jnp


def testlinspace(x, *args):  # linspace depends on parameters
    out = jnp.linspace(x[0], x[1], 50)
    out = x[2] * jnp.square(out)
    out = jnp.sum(out)
    return out


x = [2., 3., 1.5]
testobj = testlinspace(x)
testgrad = jax.grad(testlinspace)
print(round(float(testobj), 2))
print([round(float(g), 2) for g in testgrad(x)])
print([round(float(g), 2) for g in jax.jit(testgrad)(x)])
