# Cut down from patrick-kidger/equinox#116 ("MultiheadAttention fails with jit"): a layer of
# equinox.nn is handed to `jit` as the function. jit hashes it, and its weights are arrays.
import jax
from jax import jit
from equinox import nn

key=jax.random.PRNGKey(1)
x=jax.random.uniform(key,shape=(8,16))
fn = nn.MultiheadAttention(num_heads=4,query_size=16, key=key)
print(fn(x,x,x).sum().round(3))#no error

jitfn=jit(lambda *args, **kwargs: fn(*args, **kwargs))
print(jitfn(x,x,x).sum().round(3))#error
