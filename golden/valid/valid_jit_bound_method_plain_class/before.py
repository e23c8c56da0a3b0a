# From pgx's docs/assets/generate_gif.py (`init = jax.jit(env.init)`, `step = jax.jit(env.step)`):
# bound methods of an environment object handed to jax.jit, and one to lax.scan. The class is a
# plain Python class (and a flax struct holds the state), so a bound method hashes by the
# instance's identity: unlike an equinox module's method, nothing here is hashed by value.
import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class State:
    board: jax.Array
    reward: jax.Array


class Env:
    def __init__(self, size):
        self.size = size
        self.weights = jnp.arange(size, dtype=jnp.float32)

    def init(self, key):
        board = jax.random.uniform(key, (self.size,))
        return State(board, jnp.float32(0.0))

    def step(self, state, action):
        board = state.board.at[action].add(1.0)
        return State(board, state.reward + jnp.dot(board, self.weights))

    def roll(self, state, actions):
        return jax.lax.scan(lambda s, a: (self.step(s, a), None), state, actions)[0]

    def scan_step(self, state, action):
        return self.step(state, action), state.reward


env = Env(4)
init = jax.jit(env.init)
step = jax.jit(env.step)
state = init(jax.random.PRNGKey(0))
state = step(state, 2)
final, rewards = jax.lax.scan(env.scan_step, state, jnp.array([0, 1, 3]))
print(round(float(final.reward), 3), rewards.round(3).tolist())
