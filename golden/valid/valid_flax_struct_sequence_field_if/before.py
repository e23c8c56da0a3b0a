# Look-alike from flax's gemma sampler (examples/gemma/sampler.py): a flax.struct sampling state
# carries `forbidden_token_ids: Sequence[int] | None` through jit and tests it with a Python `if`.
from typing import Sequence

import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class _SamplingState:
    logits: jax.Array
    forbidden_token_ids: Sequence[int] | None


@jax.jit
def _sample_step(sampler_state):
    logits = sampler_state.logits
    if sampler_state.forbidden_token_ids:
        logits = logits.at[:, jnp.array(sampler_state.forbidden_token_ids)].set(-jnp.inf)
    return jnp.argmax(logits, axis=-1)


state = _SamplingState(jnp.arange(12.0).reshape(2, 6), (4, 5))
print(_sample_step(state).tolist())
print(_sample_step(_SamplingState(jnp.arange(12.0).reshape(2, 6), None)).tolist())
