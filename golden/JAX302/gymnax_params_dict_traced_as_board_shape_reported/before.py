import jax
import jax.numpy as jnp
from jax import jit
from flax.core import FrozenDict

# JAX Compatible version of Catch bsuite environment.

# Default environment parameters
params_catch = FrozenDict({"rows": 10,
                           "columns": 5,
                           "max_steps_in_episode": 2000,})


def step(rng_input, params, state, action):
    """ Perform single timestep state transition. """
    # Sample new init state at each step and use only if there was a reset!
    ball_x, ball_y, paddle_x, paddle_y = sample_init_state(rng_input, params)
    prev_done = state[5]

    # Move the paddle + drop the ball.
    dx = action - 1  # [-1, 0, 1] = Left, no-op, right.
    paddle_x = (jnp.clip(state[2] + dx, 0, params["columns"] - 1)
                * (1-prev_done) + paddle_x * prev_done)
    ball_y = (state[1] + 1) * (1-prev_done) + ball_y * prev_done
    ball_x = state[0] * (1-prev_done) + ball_x * prev_done
    paddle_y = state[3] * (1-prev_done) + paddle_y * prev_done

    # Rewrite reward as boolean multiplication
    done = (ball_y == paddle_y)
    catched = (paddle_x == ball_x)
    reward = done*(1*catched + -1*(1-catched))

    info = {}
    time = state[4] + 1
    state = jnp.array([ball_x, ball_y, paddle_x, paddle_y, time, done])
    return get_obs(state, params), state, reward, done, info


def sample_init_state(rng_input, params):
    """ Sample a new initial state. """
    high = jnp.zeros((params["rows"], params["columns"]))
    ball_x = jax.random.randint(rng_input, shape=(),
                                minval=0, maxval=params["columns"])
    ball_y = 0
    paddle_x = params["columns"] // 2
    paddle_y = params["rows"] - 1
    return ball_x, ball_y, paddle_x, paddle_y


def reset(rng_input, params):
    """ Reset environment state by sampling initial position. """
    ball_x, ball_y, paddle_x, paddle_y = sample_init_state(rng_input, params)
    # Last two state vector correspond to timestep and done
    state = jnp.array([ball_x, ball_y, paddle_x, paddle_y, 0, 0])
    return get_obs(state, params), state


def get_obs(state, params):
    """ Return observation from raw state trafo. """
    board = jnp.zeros((params["rows"], params["columns"]))
    board = board.at[state[1], state[0]].set(1.)
    board = board.at[state[3], state[2]].set(1.)
    return board


reset_catch = jit(reset)
step_catch = jit(step)


if __name__ == "__main__":
    rng = jax.random.PRNGKey(0)
    rng, key_reset = jax.random.split(rng)
    obs, state = reset_catch(key_reset, params_catch)
    total_reward = 0
    for t in range(12):
        rng, key_step = jax.random.split(rng)
        obs, state, reward, done, _ = step_catch(key_step, params_catch, state, 1)
        total_reward += int(reward)
    print("obs shape:", obs.shape)
    print("state:", [int(s) for s in state])
    print("total reward:", total_reward)
