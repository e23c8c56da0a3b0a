import jax
import jax.numpy as jnp
import equinox as eqx


class LinearAndActivation(eqx.Module):
    m: eqx.Module
    apply_act: bool

    def __init__(self, n_in, n_out, apply_act, key):
        self.m = eqx.nn.Linear(n_in, n_out, key=key)
        self.apply_act = apply_act

    @jax.jit
    def __call__(self, x):
        x = self.m(x)
        if self.apply_act:
            x = jax.nn.relu(x)
        return x


key1, key2 = jax.random.split(jax.random.PRNGKey(0))
hidden = LinearAndActivation(3, 8, True, key1)
head = LinearAndActivation(8, 2, False, key2)

x = jnp.array([1.0, -2.0, 0.5])
y = head(hidden(x))
print(y.round(4).tolist())
