import numpy as np
import jax
import jax.numpy as jnp
from jax import jit, grad

x = np.linspace(0, 1, 50)
y = 3.0 * x + 0.5


def loss(r, x, y):
    pred = r[0] * x + r[1]
    return jnp.mean((pred - y) ** 2)


loss = jit(loss, static_argnums=(1, 2))
dloss = grad(loss)

r = jnp.array([0.0, 0.0])
for _ in range(200):
    r = r - 0.5 * dloss(r, x, y)
print(np.round(np.asarray(r), 3), round(float(loss(r, x, y)), 5))
