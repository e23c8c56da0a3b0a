"""The helper's result is a loop bound at one call and a jitted function's output at another."""
import jax
import jax.numpy as jnp


def shape(x):
    return jnp.asarray(jnp.shape(x), dtype=jnp.int32)


def orthonormalize(vectors):
    num_vectors = shape(vectors)[-1]

    def body_fn(i, vecs):
        v = vecs[:, i] / jnp.linalg.norm(vecs[:, i])
        return vecs.at[:, i].set(v)

    return jax.lax.fori_loop(0, num_vectors, body_fn, vectors)


def describe(vectors):
    return shape(vectors)


def loss(vectors):
    return jnp.sum(orthonormalize(vectors) ** 2)


vectors = jnp.arange(1.0, 7.0).reshape(3, 2)
print(jax.jit(describe)(vectors))
print(jax.jit(jax.grad(loss))(vectors))
