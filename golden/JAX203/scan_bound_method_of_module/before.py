# Cut down from patrick-kidger/equinox#558 ("scan not working with module methods").
import equinox as eqx
from jax import Array, lax, numpy as jnp


class RecurrentCell(eqx.Module):
    w: Array

    def update(self, state, input) -> tuple[Array, Array]:
        return state, input * self.w


start_state = jnp.array([0.0])
inputs = jnp.array([1.0, 2.0, 3.0])
cell = RecurrentCell(w=jnp.array(2.0))
states, outputs = lax.scan(cell.update, start_state, inputs)
print(outputs.tolist())
