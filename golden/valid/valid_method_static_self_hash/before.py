# Valid look-alike cut down from jax-ml/jax#28418 (a jitted method with static
# self and a user __hash__), without the mutation that made it nondeterministic.
import jax
from functools import partial


class MyClass:
    def __init__(self, a):
        self.a = a
    @partial(jax.jit, static_argnums=0)
    def f(self):
        return self.a + 1
    def __hash__(self):
        return hash(self.a)
    def __eq__(self, other):
        return isinstance(other, MyClass) and self.a == other.a


for a in (1, 2, 1):
    obj = MyClass(a)
    print(obj.f())
