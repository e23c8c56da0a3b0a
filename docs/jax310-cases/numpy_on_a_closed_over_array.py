"""NumPy on a *concrete* jax Array that a jitted function closes over (numpyro#754's annotation
model: the data is a jnp array, the model computes ``int(np.max(data))`` under a jitted potential).

Each NumPy function of the table is called inside ``jax.jit`` on a jax Array that is not an
argument (a constant of the trace, not a tracer), on the same array passed through
``np.asarray`` first, and on a NumPy array; the result is 'concrete' when it is a NumPy value
(``int()`` works on it), 'tracer' when the trace staged it.
"""

import jax
import jax.numpy as jnp
import numpy as np

DATA = jnp.array([[1, 3, 2], [0, 2, 3]])
NUMPY_DATA = np.asarray(DATA)


def kind(value) -> str:
    return "tracer" if isinstance(value, jax.core.Tracer) else "concrete"


def row(name: str) -> str:
    f = getattr(np, name)
    seen: dict[str, str] = {}

    @jax.jit
    def probe(z):
        for label, arg in (("jax Array", DATA), ("np.asarray(jax Array)", np.asarray(DATA)), ("NumPy array", NUMPY_DATA)):
            try:
                seen[label] = kind(f(arg))
            except Exception as e:  # noqa: BLE001 - the table records the error's type
                seen[label] = type(e).__name__
        return z

    probe(0.0)
    return f"| `{name}` | {seen['jax Array']} | {seen['np.asarray(jax Array)']} | {seen['NumPy array']} |"


if __name__ == "__main__":
    print(f"jax {jax.__version__}, numpy {np.__version__}")
    print("| function | `np.f(data)`, data a jax Array closed over | `np.f(np.asarray(data))` | `np.f(data)`, data a NumPy array |")
    print("|---|---|---|---|")
    for name in ("max", "amax", "min", "sum", "mean", "prod", "argmax", "cumsum", "squeeze", "transpose", "exp", "abs", "sqrt"):
        print(row(name))
