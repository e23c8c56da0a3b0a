import jax
import jax.numpy as jnp


def foo(x, foo_power=10):
    # zero-pad / truncate the signal to 2**foo_power points before the FFT
    spectrum = jnp.fft.fft(x, n=2 ** foo_power)
    return jnp.abs(spectrum)


jit_foo = jax.jit(foo, static_argnames="foo_power")

x = jnp.arange(4.0)
print([round(v, 3) for v in jit_foo(x, foo_power=3).tolist()])
print([round(v, 3) for v in jit_foo(x, 2).tolist()])
