import jax
import jax.numpy as jnp
import equinox as eqx


class MockGE(eqx.Module):
    """A mock class"""
    num_iterations: int
    a: jax.Array

    def calc(self, x):
        return x * jnp.sum(self.a) + self.num_iterations


ge = MockGE(num_iterations=10, a=jnp.array([1.0, 2.0, 3.0]))


@eqx.filter_jit
def some_fn(x, ge):
    return ge.calc(x)


x = jnp.array([1.0, 2.0, 3.0])
print(some_fn(x, ge).round(4).tolist())
print(some_fn(2 * x, ge).round(4).tolist())
