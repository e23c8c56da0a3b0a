import jax
import jax.numpy as jnp
import equinox as eqx


class StaticModule(eqx.Module):
    a: float
    b: float


class Mod(eqx.Module):
    arr: jax.Array
    static: StaticModule = eqx.field(static=True)


@eqx.filter_vmap(in_axes=(0, None))
def make_ensemble(arr, steps):
    total = arr
    for _ in range(steps):
        total = total * 0.5
    return Mod(arr=total, static=StaticModule(a=1.0, b=-2.0))


ensemble = make_ensemble(jnp.arange(6.0).reshape(2, 3), 2)


@eqx.filter_vmap
def evaluate(mod):
    return mod.arr + mod.static.a + mod.static.b


print(evaluate(ensemble).tolist())
