# Cut down from patrick-kidger/equinox#1011
# ("Combining Modules, vmapping, and lax.switch (jit versus filter_jit)").
from typing import Callable

import equinox as eqx
import jax
import jax.numpy as jnp
from jax import Array, jit, lax
from jaxtyping import ArrayLike

jax.config.update("jax_enable_x64", True)


class SomeClass1(eqx.Module):
    some_array: ArrayLike

    @eqx.filter_jit
    def func(self, x) -> Array:
        del x
        return jnp.log(self.some_array)


class SomeClass2(eqx.Module):
    some_array: ArrayLike

    @eqx.filter_jit
    def func(self, x) -> Array:
        return self.some_array * x


def evaluate(index, some_array, x) -> Array:
    branches = [
        lambda x: SomeClass1(some_array).func(x),
        lambda x: SomeClass2(some_array).func(x),
    ]
    return lax.switch(index, branches, x)


index = jnp.array([0, 1, 0, 1])
some_array = jnp.array([1.0, 2.0, 3.0, 4.0])
x = jnp.array([10.0, 20.0, 30.0, 40.0])
out = jit(jax.vmap(evaluate))(index, some_array, x)
print(out.round(4).tolist())
