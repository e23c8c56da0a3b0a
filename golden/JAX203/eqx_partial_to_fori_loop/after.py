# equinox#1150: a loop body with its step size bound by eqx.Partial. fori_loop
# hashes its body to cache the trace, and eqx.Partial keeps its keywords in a
# dict field, which cannot hash.
import equinox as eqx
import jax
import jax.numpy as jnp


def euler_body(i, state, dt, decay):
    return state - dt * decay * state + 0.0 * i


def integrate(state, dt):
    body = jax.tree_util.Partial(euler_body, dt=dt, decay=0.5)
    return jax.lax.fori_loop(0, 10, body, state)


print(integrate(jnp.ones(2), 0.1))
print(jax.jit(integrate)(jnp.ones(2), 0.2))
