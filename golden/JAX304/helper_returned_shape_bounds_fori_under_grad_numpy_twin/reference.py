"""TensorFlow Probability (JAX substrate): tfp.math.gram_schmidt, as used by the reporter."""
import numpy as np
import jax
import jax.numpy as jnp
from jax import grad, jit

jax.config.update("jax_enable_x64", True)


class tf:  # tensorflow_probability.python.internal.backend.jax stand-in
    @staticmethod
    def shape(x):
        return jnp.asarray(jnp.shape(x), dtype=jnp.int32)


def gram_schmidt(vectors, num_vectors=None):
    """Implementation of the modified Gram-Schmidt orthonormalization algorithm."""
    if num_vectors is None:
        num_vectors = vectors.shape[-1]

    def body_fn(i, vecs):
        vec_norm = jnp.linalg.norm(vecs[..., i], axis=-1, keepdims=True)
        u = (vecs[..., i] / vec_norm)[..., :, None]
        weights = jnp.einsum("...dm,...dn->...n", u, vecs)
        masked_weights = jnp.where(jnp.arange(vecs.shape[-1]) > i, weights, 0.0)[..., None, :]
        return vecs - u * masked_weights

    vectors = jax.lax.fori_loop(0, num_vectors - 1, body_fn, vectors)
    vec_norm = jnp.linalg.norm(vectors, axis=-2, keepdims=True)
    return vectors / vec_norm


matrices = np.random.default_rng(0).random((3, 3, 4, 4))


def my_function(matrices):
    Q = gram_schmidt(matrices)
    return jnp.linalg.norm(Q)


print("value", float(my_function(matrices)))
my_grad = jit(grad(my_function))
grad_temp = my_grad(matrices)
print("grad norm", float(jnp.linalg.norm(grad_temp)))
