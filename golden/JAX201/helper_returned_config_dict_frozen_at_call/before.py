"""flax#587's model kwargs, built by a helper that returns the config, passed as a static argument."""
import functools

import jax
import jax.numpy as jnp


def get_model_kwargs(vocab_size):
    return {"vocab_size": vocab_size, "emb_dim": 8, "num_layers": 2, "share_embeddings": True}


@functools.partial(jax.jit, static_argnums=(1, 2))
def create_model(key, input_shape, model_kwargs):
    params = []
    for _ in range(model_kwargs["num_layers"]):
        key, sub = jax.random.split(key)
        params.append(jax.random.normal(sub, (model_kwargs["emb_dim"],) * 2) * 0.1)
    embed = jnp.ones((model_kwargs["vocab_size"], model_kwargs["emb_dim"]))
    return embed.sum() + sum(p.sum() for p in params) + input_shape[0]


model_kwargs = get_model_kwargs(vocab_size=32)
print(round(float(create_model(jax.random.PRNGKey(0), (4, 16), model_kwargs)), 4))
