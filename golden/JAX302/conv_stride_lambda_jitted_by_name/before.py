import jax.numpy as np
from jax import lax, jit

A = np.ones((1, 1, 4, 4))
kernel = np.ones((1, 1, 3, 3))
conv = lambda A, kernel, stride: lax.conv(A, kernel, stride, 'SAME')

print("this convolution call works")
print(conv(A, kernel, (1, 1)))
print("but after jitting it causes an AttributeError")
print(jit(conv)(A, kernel, (1, 1)))
