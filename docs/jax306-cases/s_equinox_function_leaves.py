"""Fact P6: which equinox modules hold a function as an ordinary leaf, so plain jax.jit rejects them,
and what eqx.filter_jit does with the same call.

Run: cd docs/jax306-cases && JAX_PLATFORMS=cpu python s_equinox_function_leaves.py (needs equinox).
"""
import equinox as eqx
import jax
import jax.numpy as jnp

print(f"equinox {eqx.__version__}, jax {jax.__version__}")
key = jax.random.PRNGKey(0)
MODULES = {
    "eqx.nn.MLP": lambda: eqx.nn.MLP(3, 2, 4, 2, key=key),
    "eqx.nn.MaxPool1d": lambda: eqx.nn.MaxPool1d(2),
    "eqx.nn.AvgPool1d": lambda: eqx.nn.AvgPool1d(2),
    "eqx.nn.Lambda(jax.nn.relu)": lambda: eqx.nn.Lambda(jax.nn.relu),
    "eqx.nn.Sequential([Linear, Lambda(relu)])": lambda: eqx.nn.Sequential(
        [eqx.nn.Linear(3, 3, key=key), eqx.nn.Lambda(jax.nn.relu)]
    ),
    "eqx.nn.Linear": lambda: eqx.nn.Linear(3, 2, key=key),
    "eqx.nn.Conv1d": lambda: eqx.nn.Conv1d(3, 2, 3, key=key),
    "eqx.nn.Dropout": lambda: eqx.nn.Dropout(0.5, inference=True),
    "eqx.nn.LayerNorm": lambda: eqx.nn.LayerNorm(3),
    "eqx.nn.GRUCell": lambda: eqx.nn.GRUCell(3, 3, key=key),
    "eqx.nn.MultiheadAttention": lambda: eqx.nn.MultiheadAttention(1, 3, key=key),
}


def first_leaf(module):
    leaves = [leaf for leaf in jax.tree_util.tree_leaves(module) if isinstance(leaf, jax.Array)]
    return leaves[0].sum() if leaves else jnp.zeros(())


for name, make in MODULES.items():
    for jit in (jax.jit, eqx.filter_jit):
        try:
            jit(first_leaf)(make())
            result = "OK"
        except Exception as error:  # noqa: BLE001 - the error is the fact
            result = f"{type(error).__name__}: {str(error).splitlines()[0][:70]}"
        print(f"| {name} | `{jit.__module__.split('.')[0]}.{jit.__name__}` | {result} |")
