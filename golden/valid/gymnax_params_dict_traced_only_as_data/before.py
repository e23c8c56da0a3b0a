# Look-alike of gymnax's Catch parameters: a params dict passed to the jitted step as a regular
# (traced) argument works where its entries are only data (arithmetic and jnp), and the board's
# shape comes from module constants.
import jax
import jax.numpy as jnp
from jax import jit

ROWS, COLUMNS = 10, 5
params_catch = {"rows": 10, "columns": 5, "reward_scale": 2.0}


def step(state, params):
    board = jnp.zeros((ROWS, COLUMNS))
    paddle = jnp.clip(state + 1, 0, params["columns"] - 1)
    return board.at[params["rows"] - 1, paddle].set(params["reward_scale"]).sum()


step_catch = jit(step)
print(float(step_catch(jnp.int32(2), params_catch)))
