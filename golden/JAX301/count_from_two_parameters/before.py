# Cut down from jax-ml/jax#25186: an explicit Euler loop whose step count is the
# difference of two index parameters of the jitted function.
import jax
from functools import partial
from jax import config
import jax.numpy as jnp
import numpy as np

config.update('jax_enable_x64', True)

realType = jnp.float64


def uxCosFun(z, dx, h):
    return dx*0.5*(1.0 - jnp.cos(z*np.pi/h))


@jax.jit
def forwardEuler(x0, z0, dt, h, dx, iStart, iEnd):
    x = x0
    z = z0
    nSteps = iEnd - iStart
    for i in range(nSteps):
        x = x + dt*uxCosFun(z, dx, h)
        z = z + dt*0.1
    return x, z


x, z = forwardEuler(jnp.array(0.0, dtype=realType), jnp.array(0.0, dtype=realType),
                    0.05, 1.0, 0.2, 10, 30)
print(round(float(x), 6), round(float(z), 6))
