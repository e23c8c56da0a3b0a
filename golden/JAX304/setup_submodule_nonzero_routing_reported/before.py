from typing import Optional

import flax.linen as nn
import jax
import jax.numpy as jnp


class MixtralConfig:
    hidden_size = 8
    intermediate_size = 16
    num_local_experts = 4
    num_experts_per_tok = 2


class FlaxMixtralBLockSparseTop2MLP(nn.Module):
    config: MixtralConfig
    dtype: jnp.dtype = jnp.float32

    def setup(self) -> None:
        self.w1 = nn.Dense(self.config.intermediate_size, use_bias=False, dtype=self.dtype)
        self.w2 = nn.Dense(self.config.hidden_size, use_bias=False, dtype=self.dtype)
        self.w3 = nn.Dense(self.config.intermediate_size, use_bias=False, dtype=self.dtype)

    def __call__(self, hidden_states):
        return self.w2(nn.silu(self.w1(hidden_states)) * self.w3(hidden_states))


class FlaxMixtralBlocKSparesTop2MLPCollection(nn.Module):
    config: MixtralConfig
    dtype: jnp.dtype = jnp.float32
    precision: Optional[jax.lax.Precision] = None

    def setup(self) -> None:
        self.layers = [
            FlaxMixtralBLockSparseTop2MLP(config=self.config, dtype=self.dtype, name=str(i))
            for i in range(self.config.num_local_experts)
        ]

    def __call__(self, expert_mask, hidden_states, routing_weights,
                 batch_size: int, sequence_length: int, hidden_dim: int):
        assert hidden_states.ndim == 2
        final_hidden_states = jnp.zeros(
            (batch_size * sequence_length, hidden_dim), dtype=hidden_states.dtype
        )
        for expert_idx, expert_layer in enumerate(self.layers):
            selected_mask = expert_mask[expert_idx]  # (top_k, tokens)
            idx, top_x = jnp.nonzero(selected_mask)
            current_state = hidden_states[top_x]
            current_hidden_states = expert_layer(current_state) * routing_weights[top_x, idx, None]
            final_hidden_states = final_hidden_states.at[top_x].add(current_hidden_states)
        return final_hidden_states


class FlaxMixtralSparseMoeBlock(nn.Module):
    config: MixtralConfig
    dtype: jnp.dtype = jnp.float32

    def setup(self) -> None:
        self.gate = nn.Dense(self.config.num_local_experts, use_bias=False, dtype=self.dtype)
        self.experts = FlaxMixtralBlocKSparesTop2MLPCollection(config=self.config, dtype=self.dtype)

    def __call__(self, hidden_states):
        batch_size, sequence_length, hidden_dim = hidden_states.shape
        hidden_states = hidden_states.reshape(-1, hidden_dim)
        router_logits = self.gate(hidden_states)
        routing_weights = jax.nn.softmax(router_logits, axis=-1)
        routing_weights, selected_experts = jax.lax.top_k(
            routing_weights, self.config.num_experts_per_tok)
        routing_weights /= routing_weights.sum(axis=-1, keepdims=True)
        # (num_experts, top_k, tokens)
        expert_mask = jax.nn.one_hot(
            selected_experts, self.config.num_local_experts, dtype=jnp.int32
        ).transpose(2, 1, 0)
        out = self.experts(expert_mask, hidden_states, routing_weights,
                           batch_size, sequence_length, hidden_dim)
        return out.reshape(batch_size, sequence_length, hidden_dim)


config = MixtralConfig()
model = FlaxMixtralSparseMoeBlock(config)
x = jax.random.normal(jax.random.PRNGKey(0), (2, 3, config.hidden_size))

# get the parameter shapes without allocating them
shapes = jax.eval_shape(model.init, jax.random.PRNGKey(1), x)
print(sorted(jax.tree_util.tree_map(lambda s: s.shape, shapes)["params"]["experts"]["0"].items()))

params = model.init(jax.random.PRNGKey(1), x)
y = jax.jit(model.apply)(params, x)
print(y.shape, round(float(jnp.abs(y).sum()), 3))
