import jax
import jax.numpy as jnp

WIDTH = 3


def window_means(signal, starts):
    def body(i, acc):
        start = starts[i]
        window = signal[jnp.arange(start, start + WIDTH)]
        return acc.at[i].set(window.mean())

    return jax.lax.fori_loop(0, starts.shape[0], body, jnp.zeros(starts.shape[0]))


signal = jnp.arange(12.0) ** 2
starts = jnp.array([0, 4, 7])
print(jax.jit(window_means)(signal, starts))
