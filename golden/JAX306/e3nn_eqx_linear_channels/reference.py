from typing import Dict, Optional

import equinox as eqx
import jax
import jax.numpy as jnp


class Linear(eqx.Module):
    """Equivariant Linear Equinox module (scalar irreps only)."""

    channel_out: int = eqx.field(static=True)
    channel_in: int = eqx.field(static=True)
    biases: bool = eqx.field(static=True)

    # These are used internally.
    _weights: Dict[str, jax.Array]

    def __init__(
        self,
        *,
        irreps_out: int,
        irreps_in: int,
        channel_out: Optional[int] = None,
        channel_in: Optional[int] = None,
        biases: bool = False,
        key: jax.Array,
    ):
        self.channel_in = channel_in
        self.channel_out = channel_out
        self.biases = biases

        channel_irrep_multiplier = 1
        if self.channel_out is not None:
            channel_irrep_multiplier = self.channel_out

        w_key, b_key = jax.random.split(key)
        dim_out = channel_irrep_multiplier * irreps_out
        weights = {"w": jax.random.normal(w_key, (irreps_in, dim_out)) / irreps_in**0.5}
        if self.biases:
            weights["b"] = jax.random.normal(b_key, (dim_out,))
        self._weights = weights

    def __call__(self, input: jax.Array) -> jax.Array:
        if self.channel_in is not None:
            if self.channel_in != input.shape[-2]:
                raise ValueError(
                    f"Linear: The input channel ({input.shape[-2]}) "
                    f"does not match the expected channel ({self.channel_in})."
                )

        output = input @ self._weights["w"]
        if self.biases:
            output = output + self._weights["b"]

        if self.channel_out is not None:
            # mul_to_axis: (..., channel_out * dim) -> (..., channel_out, dim)
            output = output.reshape(output.shape[:-1] + (self.channel_out, -1))
        return output


class Model(eqx.Module):
    linear: Linear

    def __init__(self, key):
        self.linear = Linear(
            irreps_out=4, irreps_in=5, channel_out=2, channel_in=3, biases=True, key=key
        )

    def __call__(self, x):
        return jnp.tanh(self.linear(x)).sum(axis=-1)


@jax.jit
def predict(model, x):
    return model(x)


model = Model(jax.random.PRNGKey(0))
x = jnp.linspace(-1.0, 1.0, 15).reshape(3, 5)
print(predict(model, x).round(4).tolist())
