from jax import lax
import jax
import jax.numpy as jnp


def fwd_dynamics(x_u, xs):
    x0, uk = x_u
    Delta_T = 0.001
    lwb = 1.2
    psi0 = x0[2][0]
    v0 = x0[3][0]
    vdot0 = uk[0][0]
    delta0 = uk[1][0]
    thetadot0 = uk[2][0]

    xdot = jnp.asarray([[v0 * jnp.cos(psi0)],
                        [v0 * jnp.sin(psi0)],
                        [v0 * jnp.tan(delta0) / (lwb)],
                        [vdot0],
                        [thetadot0]])
    x_next = x0 + xdot * Delta_T
    return (x_next, uk), x_next  # ("carryover", "accumulated")


def state_predictor(xk, uk, sim_timestep):
    (x_next, _), path = lax.scan(fwd_dynamics, (xk, uk), jnp.arange(sim_timestep))
    return x_next + 0.0 * path.sum()


xk = jnp.array([[0.0], [0.0], [0.1], [2.0], [0.0]])
uk = jnp.array([[0.5], [0.05], [0.1]])
sim_timesteps = jnp.array([10, 25, 40])

single = jax.jit(state_predictor, static_argnums=2)
out = jnp.stack([single(xk, uk, n) for n in (10, 25, 40)])
print(out.shape)
for row in out[:, :, 0].tolist():
    print([round(v, 5) for v in row])
