import jax
import jax.numpy as jnp


class Foo:
    @jax.jit
    @staticmethod
    def foo(x):
        return x * 2

    @jax.jit
    @staticmethod
    def norm(x):
        return jnp.sqrt(jnp.sum(x ** 2))

    def __call__(self, x):
        return self.norm(self.foo(x))


x = jnp.arange(4.0)
print(round(float(Foo.foo(x).sum()), 4))
print(round(float(Foo()(x)), 4))
