import jax
import jax.tree_util as jtu
from flax import struct


@struct.dataclass
class Test:
    a_0: float = struct.field(pytree_node=False, default=1.)
    a_1: float = 2.
    a_2: float = 3.

    def __call__(self, x):
        return self.a_0 + self.a_1 + self.a_2


@jax.grad
def loss_func(NN: Test, x: float):
    return (NN(x) - x) ** 2


@jax.jit
def step_func(NN: Test, x: float):
    dNN = loss_func(NN, x)
    NN = jtu.tree_map(lambda p, g: p - 1e-3 * g, NN, dNN)
    return NN


def train(epochs: int = 1_000):
    NN = Test()
    for _ in range(epochs):
        NN = step_func(NN, 10.)
    return NN


NN = train()
print(NN.a_0, round(float(NN.a_1), 4), round(float(NN.a_2), 4))
