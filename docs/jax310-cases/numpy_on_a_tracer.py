"""Which NumPy functions of `numpy_twins.py` fail when handed a tracer under jax.jit?

NumPy's reductions and a few shape functions (`np.sum`, `np.transpose`...) call the method of the
same name when the argument is not an ndarray, and a tracer has those methods: they work and
return a tracer. The others ask the tracer for an array (TracerArrayConversionError).
"""
import jax
import numpy as np

from numpy_twins import ARGS, NAMES, x

print("| function | `numpy.f` of a tracer under jit |")
print("|---|---|")
for name in NAMES:
    args = ARGS.get(name, (x,))

    def traced(*arrays, name=name, args=args):
        # The first array argument (inside a tuple for concatenate and friends) is the tracer.
        if isinstance(args[0], tuple):
            return getattr(np, name)((arrays[0], *args[0][1:]), *args[1:])
        if isinstance(args[0], str):
            return getattr(np, name)(args[0], arrays[0], *args[2:])
        return getattr(np, name)(arrays[0], *args[1:])

    first = args[0][0] if isinstance(args[0], tuple) else args[1] if isinstance(args[0], str) else args[0]
    try:
        jax.jit(traced)(first)
        print(f"| `{name}` | works |")
    except Exception as e:  # noqa: BLE001
        print(f"| `{name}` | {type(e).__name__} |")
