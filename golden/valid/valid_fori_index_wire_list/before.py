# Valid look-alike from PennyLaneAI/catalyst#759 (paul0403's working variant):
# the loop body passes its traced index arithmetic as a list of two indices,
# which only indexes, so no concrete value is needed. catalyst.for_loop is
# re-staged as jax.lax.fori_loop.
import jax
import jax.numpy as jnp


def do_nothing(wires, state):
    state = state.at[wires[0]].add(1.0)
    state = state.at[wires[1]].add(-1.0)
    return state


def circuit(state):
    def loop_body(i, state):
        #do_nothing(jnp.arange(2*i, 2*i+1))
        return do_nothing([2*i, 2*i+1], state)
    return jax.lax.fori_loop(0, 2, loop_body, state)


print(circuit(jnp.zeros(4)))
