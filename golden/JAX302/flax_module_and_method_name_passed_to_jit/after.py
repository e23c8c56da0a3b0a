import jax
import jax.numpy as jnp
import flax.linen as nn
import optax
from functools import partial


class ActorCritic(nn.Module):
    n_actions: int = 2

    def setup(self):
        self.torso = nn.Dense(8)
        self.pi_head = nn.Dense(self.n_actions)
        self.v_head = nn.Dense(1)

    def __call__(self, obs):
        return self.actor(obs), self.critic(obs)

    def actor(self, obs):
        return self.pi_head(nn.tanh(self.torso(obs)))

    def critic(self, obs):
        return self.v_head(nn.tanh(self.torso(obs)))[..., 0]


@partial(jax.jit, static_argnames=("model", "some_method"))
def train_step(model, some_method, params, opt_state, obs, target):
    def loss_fn(p):
        y = model.apply(p, obs, method=some_method)
        return jnp.mean((y - target) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = tx.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


model = ActorCritic()
obs = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
target = jnp.array([0.5, -0.5, 1.0, 0.0])
params = model.init(jax.random.PRNGKey(0), obs)
tx = optax.sgd(0.1)
opt_state = tx.init(params)

for step in range(3):
    params, opt_state, loss = train_step(model, "critic", params, opt_state, obs, target)
    print(step, round(float(loss), 5))
