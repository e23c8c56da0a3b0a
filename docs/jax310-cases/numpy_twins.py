"""NumPy functions and their jax.numpy twins on the same arguments (jax 0.10.2, CPU, float32 inputs).

Each row calls `numpy.f` and `jax.numpy.f` on the same arguments and says whether the results agree
(same shape, values equal within float32 rounding). The table is the list JAX310 swaps
(`transforms/rules/jax310_numpy_on_traced_value/rule.py`, `TWINS`).
"""
import jax.numpy as jnp
import numpy as np

x = np.array([0.5, -1.25, 2.0, 0.75], dtype=np.float32)
y = np.array([1.5, 0.25, -0.5, 1.0], dtype=np.float32)
m = np.arange(1.0, 10.0, dtype=np.float32).reshape(3, 3)
b = x > 0
ARGS = {
    "arctan2": (x, y), "power": (np.abs(x), y), "maximum": (x, y), "minimum": (x, y), "clip": (x, -1.0, 1.0),
    "hypot": (x, y), "logaddexp": (x, y), "append": (x, y), "concatenate": ((x, y),), "stack": ((x, y),),
    "hstack": ((x, y),), "vstack": ((x, y),), "expand_dims": (x, 0), "squeeze": (x[None],), "transpose": (m,),
    "flip": (x,), "roll": (x, 1), "dot": (x, y), "matmul": (m, m), "outer": (x, y), "inner": (x, y),
    "einsum": ("ij,jk->ik", m, m), "logical_and": (b, ~b), "logical_or": (b, ~b), "logical_not": (b,),
    "where": (b, x, y), "kron": (x, y), "trace": (m,), "diag": (x,), "tril": (m,), "triu": (m,),
    "arcsin": (x / 4,), "arccos": (x / 4,), "log": (np.abs(x),), "log1p": (np.abs(x),), "log2": (np.abs(x),),
    "log10": (np.abs(x),), "sqrt": (np.abs(x),), "cbrt": (x,),
}
NAMES = sorted({
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "exp", "exp2",
    "expm1", "log", "log1p", "log2", "log10", "sqrt", "cbrt", "square", "abs", "absolute", "sign", "power",
    "maximum", "minimum", "clip", "floor", "ceil", "hypot", "logaddexp", "deg2rad", "rad2deg", "radians",
    "degrees", "sum", "prod", "mean", "max", "min", "amax", "amin", "argmax", "argmin", "cumsum", "cumprod",
    "append", "concatenate", "stack", "hstack", "vstack", "expand_dims", "squeeze", "transpose", "flip",
    "roll", "dot", "matmul", "outer", "inner", "einsum", "isnan", "isinf", "isfinite", "logical_and",
    "logical_or", "logical_not", "where", "kron", "trace", "diag", "tril", "triu",
})

if __name__ == "__main__":
    print("| function | numpy | jax.numpy | agree |")
    print("|---|---|---|---|")
    for name in NAMES:
        args = ARGS.get(name, (x,))
        expected = np.asarray(getattr(np, name)(*args))
        got = np.asarray(getattr(jnp, name)(*args))
        same = expected.shape == got.shape and np.allclose(expected, got, rtol=1e-5, atol=1e-6, equal_nan=True)
        print(f"| `{name}` | {expected.dtype} {expected.shape} | {got.dtype} {got.shape} | {'same' if same else 'DIFFERS'} |")
