# An environment spec class (in the style of jit_env.specs.DiscreteArray) whose
# constructor validates num_values.  The spec is built inside a jitted step,
# as jit_env environments do when an agent queries env.action_spec().
import jax
import numpy as _np
from jax import numpy as _jnp


class DiscreteArray:
    def __init__(self, num_values, dtype=_jnp.int32, name=""):
        with jax.ensure_compile_time_eval():
            num_values = _jnp.asarray(num_values, dtype)
            num_values_test = not (num_values > 0).all()
        if num_values_test:
            raise ValueError(
                f"`num_values` may only contain positive integers, "
                f"got {num_values}."
            )
        self.num_values = num_values
        self.dtype = dtype
        self.name = name

    def generate_value(self):
        return _jnp.zeros(_jnp.shape(self.num_values), self.dtype)


class Env:
    def action_spec(self):
        return DiscreteArray(num_values=3, name="action")


env = Env()


@jax.jit
def policy(logits):
    spec = env.action_spec()
    return _jnp.argmax(logits) % spec.num_values + spec.generate_value()


print(int(policy(_jnp.array([0.1, 2.0, -1.0, 0.5, 4.0]))))
