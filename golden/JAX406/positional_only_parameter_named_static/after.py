# Cut down from jax-ml/jax#10601 ("`jit` input validation can lead to silently dynamic variables").
# The reporter's function bodies were elided ("..."); here `stat` sizes an array,
# so it must really be static.
import jax.numpy as jnp
from jax import jit


def f(dyn, stat):
    print(stat)
    return dyn * jnp.arange(stat)


def g(dyn, stat, /):
    print(stat)
    return dyn * jnp.arange(stat)


jf = jit(f, static_argnames=("stat",))
print(jf(1, 2).tolist())

jg = jit(g, static_argnums=(1,))
print(jg(1, 2).tolist())
