"""Which attributes and methods of a traced value are themselves traced.

A traced parameter is a tracer only when the caller passed an array. When it
passed a pytree (a dataclass registered with ``register_dataclass``, a flax
``struct.dataclass``, an equinox Module, a class registered with
``register_static``), jit traces its leaves and keeps its static fields as the
Python values they were: ``config.num_layers`` may be a plain int in a jitted
function whose ``config`` is not static. Nothing in one module says which, so
only the members of ``jax.Array`` (jax 0.10.2) carry tracedness: an attribute
that is an array, and a method that returns one or needs a concrete value.
"""

from __future__ import annotations

#: ``x.T`` and friends: arrays computed from the array.
ARRAY_ATTRIBUTES = frozenset({"T", "mT", "real", "imag"})

#: Methods of jax.Array whose result is an array (or which need a concrete value: item, tolist).
ARRAY_METHODS = frozenset(
    {
        "all", "any", "argmax", "argmin", "argpartition", "argsort", "astype", "choose", "clip", "compress",
        "conj", "conjugate", "copy", "cumprod", "cumsum", "diagonal", "dot", "flatten", "item", "max", "mean",
        "min", "nonzero", "prod", "ptp", "ravel", "repeat", "reshape", "round", "searchsorted", "sort",
        "squeeze", "std", "sum", "swapaxes", "take", "tolist", "trace", "transpose", "var", "view",
    }
)

#: Calls under these prefixes return arrays (or may: ``np.float32(1.0)`` is hashable, but
#: telling them apart is not worth a wrong guess), except the `METADATA_CALLS`.
ARRAY_MAKERS = ("jax.numpy.", "numpy.", "jax.random.", "jax.lax.", "jax.nn.", "jax.scipy.", "jax.device_put")

#: NumPy's and jax.numpy's functions that return array metadata (``shape``: a tuple of ints,
#: ``ndim``: an int, ...) or a dtype, never an array; every result hashes
#: (docs/jax4xx-behaviour.md, section C). True: plain data; False: a hashable object.
METADATA_CALLS = {
    "shape": True, "ndim": True, "size": True, "issubdtype": True, "isdtype": True, "iscomplexobj": True,
    "isrealobj": True, "isscalar": True, "iterable": True, "can_cast": True, "broadcast_shapes": True,
    "dtype": False, "result_type": False, "promote_types": False, "finfo": False, "iinfo": False,
}  # fmt: skip
#: jax.lax functions that return Python values about the trace, never arrays.
LAX_METADATA_CALLS = frozenset({"axis_size", "broadcast_shapes", "dtype"})


def metadata_call(qualified: str) -> bool | None:
    """For ``numpy.shape`` and the like: whether the result is plain data; None for other calls."""
    module, _, name = qualified.rpartition(".")
    if module == "jax.lax" and name in LAX_METADATA_CALLS:
        return True
    return METADATA_CALLS.get(name) if module in ("numpy", "jax.numpy") else None


def makes_array(qualified: str) -> bool:
    """A call of the function named `qualified` may return an array (`value_kind`, JAX201's screen)."""
    return qualified.startswith(ARRAY_MAKERS) and metadata_call(qualified) is None


#: Packages whose calls `tracedness.is_array` takes to return a jax array (the screen mirrors it).
JAX_ARRAY_MODULES = ("jax.numpy.", "jax.random.", "jax.lax.")


#: flax.linen's array functions (jax.nn's activations and its own mask makers): given a tracer,
#: a tracer.
LINEN_FUNCTIONS = frozenset(
    {
        "relu", "relu6", "gelu", "silu", "swish", "sigmoid", "tanh", "softmax", "log_softmax", "softplus",
        "elu", "celu", "selu", "leaky_relu", "hard_tanh", "hard_sigmoid", "hard_swish", "glu", "log_sigmoid",
        "logsumexp", "one_hot", "standardize", "soft_sign", "make_attention_mask", "make_causal_mask",
        "dot_product_attention", "dot_product_attention_weights",
    }
)  # fmt: skip
#: flax.linen's layers: an instance applied to a tracer (``nn.Dense(8)(x)``) returns a tracer.
LINEN_LAYERS = frozenset(
    {
        "Dense", "DenseGeneral", "Conv", "ConvTranspose", "ConvLocal", "Embed", "LayerNorm", "BatchNorm",
        "GroupNorm", "RMSNorm", "InstanceNorm", "Dropout", "MultiHeadDotProductAttention",
        "MultiHeadAttention", "SelfAttention", "Einsum", "PReLU",
    }
)  # fmt: skip


def linen_function(qualified: str) -> bool:
    """``nn.softmax`` and its kin (`LINEN_FUNCTIONS`)."""
    module, _, name = qualified.rpartition(".")
    return module == "flax.linen" and name in LINEN_FUNCTIONS


def linen_layer(qualified: str) -> bool:
    """``nn.Dense`` and its kin (`LINEN_LAYERS`)."""
    module, _, name = qualified.rpartition(".")
    return module == "flax.linen" and name in LINEN_LAYERS
