import jax
import jax.numpy as jnp


class Decoder:
    def __init__(self, vocab=5, seed=1):
        self.proj = jax.random.normal(jax.random.PRNGKey(seed), (3, vocab))

    def decode(self, key, feats, *, steps=3, top_temperature=0.0):
        logits = feats @ self.proj

        def body(i, carry):
            key, out = carry
            key, sub = jax.random.split(key)
            pick = jax.lax.cond(
                top_temperature > 0.0,
                lambda: jax.random.categorical(sub, logits / top_temperature, axis=-1),
                lambda: jnp.argmax(logits, axis=-1),
            )
            return key, out.at[:, i].set(pick)

        out = jnp.zeros((feats.shape[0], steps), dtype=jnp.int32)
        return jax.lax.fori_loop(0, steps, body, (key, out))[1]


class Runner:
    def __init__(self, decoder, decode_kwargs=None):
        self._decode = jax.jit(decoder.decode)
        self._decode_kwargs = {} if decode_kwargs is None else decode_kwargs

    def __call__(self, key, feats):
        return self._decode(key, feats, **self._decode_kwargs)


feats = jnp.array([[0.5, -1.0, 0.25], [1.0, 0.0, -0.5]])
decoder = Decoder()
print("greedy :", Runner(decoder)(jax.random.PRNGKey(0), feats).tolist())
print("sampled:", Runner(decoder, decode_kwargs=dict(top_temperature=0.8))(jax.random.PRNGKey(0), feats).tolist())
