# Cut down from jax-ml/jax#24740 ("TracerBoolConversionError").
import jax
from jax import numpy as jnp
from jax import jit,vmap
def mandle_brot(c,max_iter):
    z= jnp.array([0.0+0.0j])
    for i in range(max_iter):
        z=z*z+c
        if(jnp.abs(z)>2.0):
            return jnp.array([i])
    return jnp.array([max_iter])
z = jnp.complex64(-0.75 + 0.1j)
print(mandle_brot(z,100).tolist())
print(mandle_brot(jnp.complex64(0.5 + 0.5j),100).tolist())
Z= jnp.array([z,jnp.complex64(0.5 + 0.5j),z,z])
mandle_brot_vmap = vmap(mandle_brot,in_axes=(0,None))
print(mandle_brot_vmap(Z,10).tolist()) # error from this part
