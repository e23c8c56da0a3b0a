# Forward model with Python control flow on parameter values; only the heavy
# inner pieces are jitted, and the gradient is taken with jax.grad *without*
# wrapping the whole model in jit (set-up described in the report).
import jax
import jax.numpy as jnp


@jax.jit
def propagate(field, phase):
    spec = jnp.fft.fft(field) * jnp.exp(1j * phase)
    return jnp.real(jnp.fft.ifft(spec))


@jax.jit
def detector(y, gain):
    return gain * jnp.tanh(y)


def forward(params, x):
    a, b = params["a"], params["b"]
    if a > 1.0:                       # value-dependent branch
        y = propagate(x, a * jnp.linspace(0.0, 1.0, x.shape[0]))
    else:
        y = propagate(x, -a * jnp.ones_like(x))
    if jnp.sum(y) > 0:                # another data-dependent branch
        y = detector(y, b)
    else:
        y = detector(-y, b)
    return jnp.sum(y ** 2)


if __name__ == "__main__":
    x = jnp.sin(jnp.linspace(0.0, 3.0, 16))
    params = {"a": jnp.asarray(1.5), "b": jnp.asarray(0.8)}
    loss = forward(params, x)
    grads = jax.grad(forward)(params, x)
    print(round(float(loss), 4), round(float(grads["a"]), 4), round(float(grads["b"]), 4))
