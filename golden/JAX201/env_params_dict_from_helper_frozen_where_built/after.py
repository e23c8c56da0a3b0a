from functools import partial

import jax
import jax.numpy as jnp
from frozendict import frozendict


def params_catch():
    """Default environment parameters (some of them fix observation shapes)."""
    return frozendict({"rows": 10, "columns": 5, "max_steps_in_episode": 9})


def reset(key, params):
    ball_x = jax.random.randint(key, (), 0, params["columns"])
    return {"ball_x": ball_x, "ball_y": jnp.int32(0), "paddle_x": jnp.int32(2), "t": jnp.int32(0)}


@partial(jax.jit, static_argnums=(2,))
def get_obs(state, key, params):
    obs = jnp.zeros((params["rows"], params["columns"]))
    obs = obs.at[state["ball_y"], state["ball_x"]].set(1.0)
    obs = obs.at[params["rows"] - 1, state["paddle_x"]].set(1.0)
    return obs


@partial(jax.jit, static_argnums=(3,))
def step(key, state, action, params):
    paddle_x = jnp.clip(state["paddle_x"] + action - 1, 0, params["columns"] - 1)
    state = dict(state, paddle_x=paddle_x, ball_y=state["ball_y"] + 1, t=state["t"] + 1)
    done = state["t"] >= params["max_steps_in_episode"]
    return get_obs(state, key, params), state, done


key = jax.random.PRNGKey(0)
params = params_catch()
state = reset(key, params)
obs, state, done = step(key, state, 2, params)
print(obs.sum(), state["paddle_x"], done)
