import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


class Block(eqx.Module):
    scale: jax.Array
    use_bump: bool = eqx.field(static=True)

    def foo(self, x, layer_idx):
        x = x + jnp.tanh(x * self.scale)
        if self.use_bump:
            x = x + 0.01 * jnp.sin(x * 1e2)
        if layer_idx == 4:
            x = x * 0.5
        return x


class Stack(eqx.Module):
    block: Block
    num_layers: int = eqx.field(static=True)

    def __call__(self, x):
        for layer_idx in range(self.num_layers):
            x = self.block.foo(x, layer_idx)
        return x


model = Stack(Block(scale=jnp.float32(0.3), use_bump=True), num_layers=6)
out = eqx.filter_jit(model)(jnp.linspace(-1.0, 1.0, 5))
print(np.round(np.asarray(out), 4))
