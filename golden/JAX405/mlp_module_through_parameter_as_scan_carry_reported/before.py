import jax
import jax.numpy as jnp
import equinox as eqx


class SimpleMLP(eqx.Module):
    mlp: eqx.nn.MLP

    def __init__(self, *, key) -> None:
        self.mlp = eqx.nn.MLP(in_size=3, out_size=1, width_size=8, depth=2, key=key)

    def __call__(self, x):
        return self.mlp(x)


key = jax.random.PRNGKey(42)
mlp = SimpleMLP(key=key)


def rollout(mlp, xs):
    def step(carry, x):
        mlp = carry  # just for understanding
        val = mlp(x)
        carry = mlp
        return carry, [val]

    _, scan_out = jax.lax.scan(
        step,
        [mlp],
        xs
    )

    return scan_out


key, subkey = jax.random.split(key)
vals = rollout(mlp, jax.random.normal(key=subkey, shape=(20, 3)))
print(vals[0].shape)
print(vals[0][:5].ravel())
