# Cut down from jax-ml/jax#17197 ("Dataclass cannot be hashed.")
from dataclasses import dataclass
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node


@dataclass
class A:
    val: jnp.ndarray

    def __call__(self, x):
        return self.val * x


class B:
    def __init__(self, val: jnp.ndarray):
        self.val = val

    def __call__(self, x):
        return self.val * x


def flatten(obj):
    return (obj.val, None)


def unflatten_a(aux_data, children):
    return A(*children)


def unflatten_b(aux_data, children):
    return B(*children)


register_pytree_node(A, flatten, unflatten_a)
register_pytree_node(B, flatten, unflatten_b)

b = B(jnp.arange(4.0))
fast_call_b = jax.jit(b)
print("B:", fast_call_b(2.0).tolist())

a = A(jnp.arange(4.0))
fast_call_a = jax.jit(a)
print("A:", fast_call_a(2.0).tolist())
