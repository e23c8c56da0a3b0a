# Cut down from patrick-kidger/equinox#570 ("Simple example for differentiating loss with basic MLP?").
import jax.numpy as jnp
import numpy as np
import equinox as eqx
import jax


def example():
    key = jax.random.PRNGKey(seed=0)
    model = eqx.nn.MLP(2, 1, 4, 3, key=key)
    rng = np.random.default_rng(0)
    X = rng.standard_normal((100, 2)).astype(np.float32)
    y = rng.standard_normal((100, 1)).astype(np.float32)

    def nll(model, X, y):
        yp = jax.vmap(model)(X)
        mse = jnp.mean((y - yp) ** 2)
        return mse

    yp = jax.vmap(model)(X)

    loss = nll(model, X, y)
    print(round(float(loss), 4))
    loss = jax.jit(nll)(model, X, y)  # FAILS
    print(round(float(loss), 4))


example()
