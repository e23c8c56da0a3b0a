# scenic's gradient accumulation (commit a69dfe0) with its sanity checks on sizes only: the assert
# in the micro-batch fetcher tests shapes, which are Python ints under the fori_loop's trace too.
import jax
import jax.numpy as jnp


def accumulate(params, batch, accum_steps):
    batch_size = batch.shape[0]
    microbatch_size = batch_size // accum_steps

    def get_microbatch(idx):
        assert microbatch_size * accum_steps == batch.shape[0]
        return batch.reshape((-1, microbatch_size) + batch.shape[1:])[idx]

    def body(i, acc):
        mb = get_microbatch(i)
        return acc + jax.grad(lambda p: jnp.mean((mb @ p) ** 2))(params)

    return jax.lax.fori_loop(0, accum_steps, body, jnp.zeros_like(params)) / accum_steps


step = jax.jit(accumulate, static_argnums=2)
grads = step(jnp.ones(3), jnp.arange(24.0).reshape(8, 3) / 10, 4)
print([round(float(g), 4) for g in grads])
