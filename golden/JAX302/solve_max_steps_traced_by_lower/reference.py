# Hand fix for patrick-kidger/diffrax#379 ("I'm passing in max steps as an
# argument and it's tripping up the tracer"): max_steps is configuration; make it
# static in the user's jit (every call passes the int 4096).
import jax
import jax.numpy as jnp
from jax import lax


def diffeqsolve(vector_field, t0, t1, dt0, y0, args=None, max_steps=4096):
    # stand-in for diffrax.diffeqsolve -> eqxi.while_loop(..., max_steps=max_steps)
    def body(state):
        t, y, n = state
        return t + dt0, y + dt0 * vector_field(t, y, args), n + 1

    def cond(state):
        t, _, n = state
        return (t < t1) & (n < max_steps)

    if max_steps == 1:
        return body((t0, y0, 0))[1]
    return lax.while_loop(cond, body, (t0, y0, 0))[1]


def f(t, y, args):
    return -args * y


def solve(y0, max_steps):
    return diffeqsolve(f, 0.0, 1.0, 0.1, y0, args=2.0, max_steps=max_steps)


solve_jit = jax.jit(solve, static_argnums=(1,))
compiled = solve_jit.lower(jnp.ones(3), 4096).compile()
print(compiled.cost_analysis()["flops"] > 0)
print(jnp.round(solve_jit(jnp.ones(3), 4096), 4))
