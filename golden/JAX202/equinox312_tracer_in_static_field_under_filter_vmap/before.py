import jax
import jax.numpy as jnp
import equinox as eqx


class StaticModule(eqx.Module):
    """Stores values that we want to treat as static always"""
    a: float
    b: float
    c: float


class Mod(eqx.Module):
    """
    Encapsulates a whole state where some parts are dynamic and others are static
    """
    arr: jax.Array
    static: StaticModule = eqx.field(static=True)


arrs = jnp.asarray([
    [1.0, 2.0, 3.0],
    [4.0, 5.0, 6.0],
])
statics = jnp.asarray([
    [1.0, 2.0, 3.0],
    [-1.0, -2.0, -3.0],
])


@eqx.filter_vmap(in_axes=(0, 0))
def make_ensample(arr, static):
    stat_mod = StaticModule(a=static[0], b=static[1], c=static[2])
    return Mod(arr=arr, static=stat_mod)


ensample = make_ensample(arrs, statics)


@eqx.filter_vmap(in_axes=(0, None))
def evaluate_ensample(mod: Mod, c: int):
    adds = jnp.asarray([mod.static.a, mod.static.b, mod.static.c])
    new_arr = mod.arr + adds + c

    where = lambda _: _.arr
    new_mod = eqx.tree_at(where, mod, new_arr)

    return new_mod


outputs = evaluate_ensample(ensample, 1)
print(outputs.arr.tolist())
