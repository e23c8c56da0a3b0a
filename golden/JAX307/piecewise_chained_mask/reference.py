# Cut down from jax-ml/jax#7969 ("Can not jit-compile piecewise linear function").
import jax

def f(x):
    return jax.numpy.piecewise(x, [x<0,(0<x)&(x<1)], [-x, x])

f_jit=jax.jit(f)

print(f(0.5)) # 0.5
print(f_jit(0.5))
print(f_jit(-2.0))
