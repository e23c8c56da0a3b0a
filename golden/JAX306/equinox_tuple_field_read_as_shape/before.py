# Cut down from patrick-kidger/equinox#236 ("filter_jit static_argnames").
# The reporter's body was not posted; per the maintainer's diagnosis it built an
# array whose shape came from the traced inputs (jnp.zeros(shape)).  Stand-in:
# the module carries its output shape as a tuple of Python ints.
import functools
import typing

import equinox
import jax
import jax.numpy as jnp


class Grid(equinox.Module):
    shape: tuple
    scale: jnp.ndarray


@functools.partial(jax.jit, static_argnames=['myfunction'])
def jit_function(mymodule: equinox.Module, myarray: jnp.ndarray, myfunction: typing.Callable) -> jnp.ndarray:
    out = jnp.zeros(mymodule.shape)
    return myfunction(out + mymodule.scale * myarray)


mymodule = Grid(shape=(2, 3), scale=jnp.array(2.0))
myarray = jnp.arange(3.0)
print(jax.device_get(jit_function(mymodule, myarray, jnp.tanh)).astype("float64").round(4).tolist())
print(jax.device_get(jit_function(mymodule, myarray, myfunction=jnp.sin)).astype("float64").round(4).tolist())
