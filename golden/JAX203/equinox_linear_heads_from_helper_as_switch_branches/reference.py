# Choosing one of several Linear heads with jax.lax.switch.
# Originally written with haliax (whose Linear is an equinox Module).
import jax
import jax.numpy as jnp
import equinox as eqx

BATCH = 2
IN = 10
OUT = 5


def make_heads(seed: int = 0):
    keys = jax.random.split(jax.random.PRNGKey(seed), 3)
    f1 = eqx.nn.Linear(IN, OUT, key=keys[0])
    f2 = eqx.nn.Linear(IN, OUT, key=keys[1])
    f3 = eqx.nn.Linear(IN, OUT, key=keys[2])
    return f1, f2, f3


f1, f2, f3 = make_heads()
x = jax.random.normal(jax.random.PRNGKey(3), shape=(BATCH, IN))


def apply_head(index, xb):
    # index is either 0, 1, 2
    return jax.lax.switch(index, (lambda v: f1(v), lambda v: f2(v), lambda v: f3(v)), xb)


def batched_heads(index, x):
    return jax.vmap(lambda row: apply_head(index, row))(x)


for index in (0, 1, 2):
    out = batched_heads(index, x)
    print("head", index, out.shape, f"{float(out.sum()):.4f}")
