import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


class Block(eqx.Module):
    scale: jax.Array

    def foo(self, x, layer_idx):
        attn_output = jnp.tanh(x * self.scale)
        x = x + attn_output
        ff_output = 0.5 * jnp.sin(x)
        x = x + ff_output

        x = jnp.where(jnp.equal(layer_idx, 4), x + 0.01 * jnp.sin(x * 1e2), x)

        return x


class Stack(eqx.Module):
    block: Block
    num_layers: int = eqx.field(static=True)

    def __call__(self, x):
        def body(carry, layer_idx):
            return self.block.foo(carry, layer_idx), None

        x, _ = jax.lax.scan(body, x, jnp.arange(self.num_layers))
        return x


model = Stack(Block(scale=jnp.float32(0.3)), num_layers=6)
x = jnp.linspace(-1.0, 1.0, 5)
out = eqx.filter_jit(model)(x)
print(np.round(np.asarray(out), 4))
