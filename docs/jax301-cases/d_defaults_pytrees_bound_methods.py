# D: values inside a jitted or mapped function that stay Python values although
# the function is traced: a default the call leaves out, a pytree's static field,
# the receiver of a bound method. (False positives the corpus run found.)
import dataclasses
import functools

import jax
import jax.numpy as jnp


def kind(v):
    return "tracer" if isinstance(v, jax.core.Tracer) else type(v).__name__


def show(label, thunk):
    seen = []
    thunk(seen)
    print(f"{label:60s} {seen[0]}")


# D1. Defaults: jit traces the arguments a call passes, not the defaults.
def with_default(seen):
    @jax.jit
    def f(x, n=3):
        seen.append(kind(n))
        return x

    return f


show("jit f(x, n=3) called f(x)", lambda s: with_default(s)(jnp.ones(2)))
show("jit f(x, n=3) called f(x, 4)", lambda s: with_default(s)(jnp.ones(2), 4))
show("jit f(x, n=3) called f(x, n=4)", lambda s: with_default(s)(jnp.ones(2), n=4))
show("vmap f(x, n=3) called f(xs)", lambda s: jax.vmap(lambda x, n=3: (s.append(kind(n)), x)[1])(jnp.ones(2)))


# D2. A pytree argument: its static fields arrive as the Python values they were.
@functools.partial(jax.tree_util.register_dataclass, data_fields=["w"], meta_fields=["num_layers"])
@dataclasses.dataclass
class Config:
    w: jax.Array
    num_layers: int

    def depth(self):
        return self.num_layers


def read(pick):
    def run(seen):
        @jax.jit
        def f(config):
            seen.append(kind(pick(config)))
            return config.w

        f(Config(jnp.ones(2), 3))

    return run


show("jit f(config): config.num_layers (a meta field)", read(lambda c: c.num_layers))
show("jit f(config): config.depth() (a method)", read(lambda c: c.depth()))
show("jit f(config): config.w (a data field)", read(lambda c: c.w))
show("jit f(config): config.w.sum() (an array method)", read(lambda c: c.w.sum()))
show("jit f(config): config.w.T (an array attribute)", read(lambda c: c.w.T))


# D3. A bound method: a transform around it never sees its receiver.
class Env:
    def __init__(self, repeat):
        self.repeat = repeat

    def step(self, state, seen):
        seen.append(f"self: {kind(self)}, self.repeat: {kind(self.repeat)}")
        return state


env = Env(3)
show("vmap(env.step) (bound)", lambda s: jax.vmap(functools.partial(env.step, seen=s))(jnp.ones(2)))
show("jit(env.step) (bound)", lambda s: jax.jit(functools.partial(env.step, seen=s))(jnp.ones(2)))
show("pmap(env.step) (bound)", lambda s: jax.pmap(functools.partial(env.step, seen=s))(jnp.ones((1, 2))))
