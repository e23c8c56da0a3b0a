import jax
import jax.numpy as jnp
import flax.linen as nn


class RMSNorm(nn.Module):
    @nn.compact
    def __call__(self, x):
        scale = self.param("scale", nn.initializers.zeros_init(), (x.shape[-1],))
        var = jnp.mean(jnp.square(x), axis=-1, keepdims=True)
        return x * jax.lax.rsqrt(var + 1e-6) * (1 + scale)


class Block(nn.Module):
    """Transformer block."""

    width: int
    dropout: float = 0.0

    @nn.compact
    def __call__(self, xs, positions, attn_mask, adarms_cond, deterministic=True):  # noqa: FBT002
        drop = nn.Dropout(self.dropout) if self.dropout else lambda x, _: x

        pre_attn = RMSNorm(name="pre_attention_norm")(xs)
        post_attn = nn.Dense(self.width, name="attn")(pre_attn) * attn_mask
        post_attn = drop(post_attn, deterministic)
        xs = xs + post_attn

        out = RMSNorm(name="pre_ffw_norm")(xs)
        out = nn.Dense(self.width, name="mlp")(out + adarms_cond)
        out = drop(out, deterministic)
        return xs + out, None


class Module(nn.Module):
    width: int
    depth: int
    dropout: float = 0.0

    def setup(self):
        block_cls = nn.remat(
            Block,
            prevent_cse=False,
            static_argnums=(4,),  # 0=self, 4=deterministic
            policy=jax.checkpoint_policies.nothing_saveable,
        )
        self.layers = nn.scan(
            block_cls,
            variable_axes={"params": 0},
            split_rngs={"params": True, "dropout": True},
            in_axes=(nn.broadcast, nn.broadcast, nn.broadcast, nn.broadcast),
            length=self.depth,
        )(width=self.width, dropout=self.dropout)

    def __call__(self, embedded, positions, mask, adarms_cond, *, deterministic=True):
        embedded, _ = self.layers(embedded, positions, mask, adarms_cond, deterministic)
        return embedded


model = Module(width=8, depth=2, dropout=0.1)
x = jnp.ones((1, 4, 8))
positions = jnp.arange(4)[None]
mask = jnp.ones((1, 4, 1))
cond = jnp.zeros((1, 4, 8))
params = model.init({"params": jax.random.PRNGKey(0), "dropout": jax.random.PRNGKey(1)}, x, positions, mask, cond)
out = model.apply(params, x, positions, mask, cond, deterministic=True)
print(out.shape, float(out.sum()))
