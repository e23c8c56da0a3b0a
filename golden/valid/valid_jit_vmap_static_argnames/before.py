# Valid look-alike from jax-ml/jax#10741 (the vmap half, which works): jit of a
# vmapped function with static_argnames on an unmapped (in_axes None) flag.
import jax
import jax.numpy as jnp


# dummy function
def func(cond, data):
   if cond: return data
   else: return -data


# vectorisation
func_vmap = jax.vmap(func, in_axes=[None, 0], out_axes=0)

# jit compiling
func_vmap_jit = jax.jit(func_vmap, static_argnames=['cond'])

# running
data = jnp.ones(3)
print(func_vmap_jit(True, data))
print(func_vmap_jit(False, data))
