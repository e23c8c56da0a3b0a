# Cut down from patrick-kidger/diffrax#379 ("FLOPS count"): to count FLOPs the
# user lowers jax.jit(solve) (the recipe of jax-ml/jax#10542) and passes
# max_steps as an argument; the solver's loop tests `if max_steps == 1:` in
# Python (equinox's checkpointed_while_loop), so the traced value breaks it.
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


lowered = jax.jit(solve, static_argnames=("max_steps",)).lower(jnp.ones(3), 4096)
compiled = lowered.compile()
print(compiled.cost_analysis()["flops"] > 0)
print(jnp.round(jax.jit(solve, static_argnames=("max_steps",))(jnp.ones(3), 4096), 4))
