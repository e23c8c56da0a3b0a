import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class Params:
    first_param: jnp.ndarray
    second_param: int = struct.field(pytree_node=False)


def loss(first_param, second_param):
    # repeat every weight `second_param` times
    expanded = jnp.repeat(first_param, second_param)
    return jnp.sum(jnp.sin(expanded * jnp.arange(expanded.shape[0])) ** 2)


@jax.jit
def foo(params: Params):
    return jax.value_and_grad(loss)(params.first_param, params.second_param)


params = Params(first_param=jnp.array([0.1, 0.2, 0.3]), second_param=3)
value, grad = foo(params)
print(round(float(value), 4), grad.round(4).tolist())
