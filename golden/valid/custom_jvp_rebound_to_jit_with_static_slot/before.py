from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_jvp, nondiff_argnums=(1,))
def scale_grad(x, bound):
    return x


@scale_grad.defjvp
def scale_grad_jvp(bound, primals, tangents):
    x, = primals
    t, = tangents
    return x, t * bound


scale_grad = jax.jit(scale_grad, static_argnums=(1,))
print(jax.grad(lambda v: scale_grad(v, 0.5) * 3.0)(2.0))
