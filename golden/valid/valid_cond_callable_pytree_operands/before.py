# Cut down from jax-ml/jax#16413: lax.cond operands that are callable pytrees
# (jax.tree_util.Partial); the branches call them, which works.
import jax.lax as lax
import jax.numpy as jnp
import jax.tree_util as jtu


def true_branch(add_one, add_two):
    return add_one(add_two(jnp.array(1.)))


def false_branch(add_one, add_two):
    return add_two(add_one(jnp.array(1.)))


add_one = jtu.Partial(jnp.add, jnp.array(1.))  # A callable pytree
add_two = jtu.Partial(jnp.add, jnp.array(2.))
four = lax.cond(True, true_branch, false_branch, add_one, add_two)
print(float(four))
