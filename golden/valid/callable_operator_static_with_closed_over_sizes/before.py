# Value function iteration in the QuantEcon JAX lectures style: the solver is
# jitted with the *operator* (a Python callable) marked static, and the model is
# a (constants, sizes, arrays) triple closed over by a lambda.
import jax
import jax.numpy as jnp


def successive_approx_jax(T,                     # Operator (callable)
                          x_0,                   # Initial condition
                          tolerance=1e-6,        # Error tolerance
                          max_iter=10_000):      # Max iteration bound
    def body_fun(k_x_err):
        k, x, error = k_x_err
        x_new = T(x)
        error = jnp.max(jnp.abs(x_new - x))
        return k + 1, x_new, error

    def cond_fun(k_x_err):
        k, x, error = k_x_err
        return jnp.logical_and(error > tolerance, k < max_iter)

    k, x, error = jax.lax.while_loop(cond_fun, body_fun, (1, x_0, tolerance + 1))
    return x

successive_approx_jax = jax.jit(successive_approx_jax, static_argnums=(0,))


def create_savings_model(R=1.02, β=0.94, w_max=5.0, w_size=60):
    w_grid = jnp.linspace(1e-3, w_max, w_size)
    constants = R, β
    sizes = (w_size,)
    arrays = (w_grid,)
    return constants, sizes, arrays


def B(v, constants, sizes, arrays):
    R, β = constants
    w_size, = sizes
    w_grid, = arrays
    w = jnp.reshape(w_grid, (w_size, 1))
    wp = jnp.reshape(w_grid, (1, w_size))
    c = R * w - wp
    u = jnp.where(c > 0, jnp.log(jnp.maximum(c, 1e-10)), -jnp.inf)
    return u + β * jnp.reshape(v, (1, w_size))


def T(v, constants, sizes, arrays):
    return jnp.max(B(v, constants, sizes, arrays), axis=1)


def value_iteration(model, tol=1e-5):
    constants, sizes, arrays = model
    vz = jnp.zeros(sizes)
    _T = lambda v: T(v, constants, sizes, arrays)
    v_star = successive_approx_jax(_T, vz, tolerance=tol)
    return v_star


if __name__ == "__main__":
    model = create_savings_model()
    v_star = value_iteration(model)
    print(round(float(v_star.mean()), 4), round(float(v_star[-1]), 4))
