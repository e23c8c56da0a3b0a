# Cut down from https://github.com/ermongroup/BCD-Nets/issues/1 (main.py)
# The observed data Xs is broadcast to all devices and was also marked as a
# static broadcasted argument of the pmapped gradient step.
from functools import partial

import jax
import jax.numpy as jnp
import jax.random as rnd
import numpy as onp
import optax
from jax import lax, pmap, value_and_grad
from jax.tree_util import tree_map

num_devices = jax.local_device_count()
dim, n_data = 3, 16
opt_P = optax.adam(1e-2)
opt_L = optax.adam(1e-2)


def elbo(P_params, L_params, Xs, rng_key, tau):
    noise = rnd.normal(rng_key, (dim,)) * 0.01
    W = jnp.tanh(P_params["w"] / tau) * L_params["l"] + noise
    resid = Xs - Xs @ W
    return -jnp.mean(resid ** 2)


@partial(
    pmap,
    axis_name="i",
    in_axes=(0, 0, None, 0, 0, 0, None),
)
def parallel_gradient_step(P_params, L_params, Xs, P_opt_state, L_opt_state, rng_key, tau):
    rng_key, rng_key_2 = rnd.split(rng_key, 2)
    tau_scaling_factor = 1.0 / tau
    _, grads = value_and_grad(elbo, argnums=(0, 1))(P_params, L_params, Xs, rng_key, tau)
    elbo_grad_P, elbo_grad_L = tree_map(lambda x: -tau_scaling_factor * x, grads)
    elbo_grad_P = lax.pmean(elbo_grad_P, axis_name="i")
    elbo_grad_L = lax.pmean(elbo_grad_L, axis_name="i")
    P_updates, P_opt_state = opt_P.update(elbo_grad_P, P_opt_state, P_params)
    P_params = optax.apply_updates(P_params, P_updates)
    L_updates, L_opt_state = opt_L.update(elbo_grad_L, L_opt_state, L_params)
    L_params = optax.apply_updates(L_params, L_updates)
    return P_params, L_params, P_opt_state, L_opt_state, rng_key_2


Xs = onp.random.RandomState(0).randn(n_data, dim).astype(onp.float32)
rep = lambda t: tree_map(lambda x: jnp.stack([x] * num_devices), t)
P_params = rep({"w": jnp.eye(dim)})
L_params = rep({"l": jnp.full((dim, dim), 0.1)})
P_opt_state, L_opt_state = rep(opt_P.init({"w": jnp.eye(dim)})), rep(opt_L.init({"l": jnp.full((dim, dim), 0.1)}))
rng_key = rnd.split(rnd.PRNGKey(0), num_devices)

for i in range(5):
    P_params, L_params, P_opt_state, L_opt_state, rng_key = parallel_gradient_step(
        P_params, L_params, Xs, P_opt_state, L_opt_state, rng_key, 0.5
    )
print(onp.round(onp.asarray(L_params["l"][0], dtype=onp.float64), 3).tolist())
