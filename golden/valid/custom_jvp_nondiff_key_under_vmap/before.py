# Gamma sampler with a hand-written JVP.  The shape and the PRNG key are
# declared nondiff_argnums; the sampler is then vmapped over a batch of keys
# and also jitted, so the key argument arrives as a tracer.  Current JAX
# supports traced nondiff arguments here (the shape stays a Python tuple).
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.custom_jvp, nondiff_argnums=(0, 2))
def sample(shape, param, seed):
    return jax.random.gamma(key=seed, shape=shape, a=param)


@sample.defjvp
def sample_jvp(shape, seed, primals, tangents):
    param, = primals
    dparam, = tangents
    dparam = jnp.broadcast_to(dparam, shape)
    samples = sample(shape, param, seed)
    return samples, samples * dparam  # dummy jvp for proof of concept


keys = jax.random.split(jax.random.PRNGKey(1), 10)
batched = jax.vmap(lambda seed: sample((2, 3), 1., seed))(keys)
single = jax.jit(lambda seed: sample((2, 3), 1., seed))(jax.random.PRNGKey(1))
tangent = jax.jvp(lambda a: sample((2, 3), a, keys[0]), (1.,), (1.,))[1]
print(batched.shape, single.shape, tangent.shape)
