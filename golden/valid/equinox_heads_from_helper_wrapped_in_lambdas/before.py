# Linear heads built by a helper and chosen with lax.switch, each wrapped in a plain function:
# the branches lax.switch hashes are ordinary functions, which hash.
import jax
import jax.numpy as jnp
import equinox as eqx


def make_heads(seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    return eqx.nn.Linear(4, 2, key=k1), eqx.nn.Linear(4, 2, key=k2)


head_a, head_b = make_heads()


def apply_head(index, x):
    return jax.lax.switch(index, (lambda v: head_a(v), lambda v: head_b(v)), x)


x = jnp.arange(4.0)
for index in (0, 1):
    print(index, round(float(apply_head(index, x).sum()), 4))
