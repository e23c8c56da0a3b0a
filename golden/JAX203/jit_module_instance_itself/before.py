# Cut down from patrick-kidger/equinox#125 ("Automatically compile dependant Equinox modules"):
# the modules are compiled by handing them to `jax.jit` themselves. A module is hashed as the
# function jit caches, and FirstModule holds an array.
import equinox as eqx
import jax


class FirstModule(eqx.Module):

    params: float

    array: jax.numpy.ndarray

    def __init__(
        self,
        param: float,
    ):
        self.params = param
        self.array = jax.numpy.array([param])

    def __call__(self, x):
        return self.array + x


class SecondModule(eqx.Module):

    first_module: FirstModule

    def __init__(
        self,
        first_module: FirstModule,
    ):
        self.first_module = first_module

    def __call__(self, x):
        return self.first_module(x)


first_module = FirstModule(1.0)
first_module_jit = jax.jit(first_module)
second_module = SecondModule(first_module)

print(first_module_jit(2.0).tolist())
print(second_module(3.0).tolist())
