import numpy as np
import jax.numpy as jnp
from jax import jit, vmap


def myFunc(array1, array2, par):
    # array1: (3, 100) slab, array2: (100,) grid, par: dict of parameters
    decay = jnp.exp(-array2 / par["tau"])
    return par["amp"] * array1 * decay + par["offset"]


in1 = np.linspace(0.0, 1.0, 4 * 3 * 100, dtype=np.float32).reshape(4, 3, 100)
in2 = np.linspace(0.0, 5.0, 100, dtype=np.float32)
params = {"amp": 2.0, "tau": 1.5, "offset": 0.25}

## Using jit
dd = np.zeros((in1.shape[0], 3, 100), dtype=np.float32)
func_jit = jit(myFunc)
for i in range(len(in1)):
    dd[i] = func_jit(in1[i], in2, params)
print("jit loop:", dd.sum(axis=(1, 2)).round(3).tolist())

## Using vmap
func_vmap = vmap(myFunc, (0, None, None))
dd2 = func_vmap(in1, in2, params)
print("vmap:", np.asarray(dd2).sum(axis=(1, 2)).round(3).tolist())
