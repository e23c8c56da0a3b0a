from jax import random
from jax import lax
import jax
import jax.numpy as jnp

# --- stand-in for the reporter's fwd_dynamics (body not shown in the report):
# a simple control-affine system x_{k+1} = x_k + dt * (A x_k + B u_k)
state_len = 4
input_len = 1
Delta_T = 0.01
A_mat = -0.5 * jnp.eye(state_len) + 0.1 * jnp.ones((state_len, state_len))
B_mat = jnp.ones((state_len, input_len))


def fwd_dynamics(x_u, xs):
    xk, uk = x_u
    x_next = xk + Delta_T * (A_mat @ xk + B_mat @ uk)
    return (x_next, uk), x_next


def state_predictor(xk, uk, sim_timestep):
    (x_next, _) = lax.fori_loop(0, sim_timestep, lambda i, c: fwd_dynamics(c, i)[0], (xk, uk))
    return x_next


# --- setup: a batch of initial states / inputs, each with its own horizon
batch_size = 8
key = random.PRNGKey(0)
k1, k2, k3 = random.split(key, 3)
xk = random.normal(k1, (batch_size, state_len))
uk = random.normal(k2, (batch_size, input_len))
sim_time = random.randint(k3, (batch_size,), 5, 50)  # different per batch element

state_predictor_vmap = jax.jit(jax.vmap(state_predictor, in_axes=0, out_axes=0))
x_next = state_predictor_vmap(xk, uk, sim_time)
print(x_next.shape)
print(jnp.round(x_next, 4))
