# A plain list of Python values kept by an nnx Module is static metadata: `nnx.split` puts it in
# the GraphDef as it is. Passed to `jax.jit` as a static argument, the GraphDef is hashed; under
# `nnx.jit` the module is split by nnx itself. (flax#5489: `MultiMetric._metric_names`.)
import jax
import jax.numpy as jnp
from flax import nnx


class Filled(nnx.Module):
    def __init__(self):
        self.names = []
        for n in ("x", "y"):
            self.names.append(n)
        self.w = nnx.Param(jnp.ones(2))


class Frozen(nnx.Module):
    def __init__(self):
        self.names = []
        for n in ("x", "y"):
            self.names.append(n)
        self.names = tuple(self.names)
        self.w = nnx.Param(jnp.ones(2))


class Display(nnx.Module):
    def __init__(self):
        self.names = ["x", "y"]
        self.w = nnx.Param(jnp.ones(2))


def row(cls):
    out = []
    graphdef, state = nnx.split(cls())
    try:
        hash(graphdef)
        out.append("OK")
    except Exception as e:  # noqa: BLE001
        out.append(f"{type(e).__name__}: {str(e)[:40]}")
    try:
        f = jax.jit(lambda g, s: nnx.merge(g, s).w[...].sum(), static_argnums=0)
        out.append(f"OK {float(f(graphdef, state))}")
    except Exception as e:  # noqa: BLE001
        out.append(f"{type(e).__name__}: {str(e)[:55]}")
    out.append(f"OK {float(nnx.jit(lambda m: m.w[...].sum())(cls()))}")
    print(cls.__name__, "|", " | ".join(out))


for cls in (Filled, Display, Frozen):
    row(cls)
