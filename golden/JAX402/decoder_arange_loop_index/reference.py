# Cut down from EiffL/Quarks2CosmosDataChallenge PR 6: a Haiku-style decoder walks its block
# groups in reverse with a loop over jnp.arange and indexes Python tuples with the loop variable.
import jax
import jax.numpy as jnp


class Decoder:
  def __init__(self,
               blocks_per_group=(2, 2, 2),
               channels_per_group=(4, 8, 16),
               name=None):
    self.channels_per_group = channels_per_group
    self.blocks_per_group = blocks_per_group
    self.name = name

  def __call__(self, inputs):
    net = inputs
    strides = (1, 2, 2)
    for i in range(3)[::-1]:
      c = self.channels_per_group[i]
      n = self.blocks_per_group[i]
      s = strides[i]
      net = jnp.tanh(net * c / (n * s) + 0.1)
    return net


decoder = Decoder(name="decoder")
out = jax.jit(decoder)(jnp.linspace(-1.0, 1.0, 5))
print([round(float(v), 5) for v in out])
