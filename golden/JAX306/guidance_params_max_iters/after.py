"""Optimize constraints with a small Levenberg-Marquardt-style solver.

Cut down from egoallo's guidance_optimizer_jax.py.
"""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import Literal

import jax
import numpy as onp
from jax import numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class JaxGuidanceParams:
    prior_quat_weight: float = 1.0
    prior_pos_weight: float = 5.0
    body_quat_smoothness_weight: float = 1.0
    skate_weight: float = 30.0

    hand_quats: bool = dataclasses.field(default=True, metadata=dict(static=True))
    aria_wrists: bool = dataclasses.field(default=True, metadata=dict(static=True))

    # Optimization parameters.
    lambda_initial: float = 0.1
    max_iters: int = dataclasses.field(default=20, metadata=dict(static=True))

    @staticmethod
    def defaults(
        mode: Literal["no_hands", "aria_wrist_only"],
        phase: Literal["inner", "post"],
    ) -> JaxGuidanceParams:
        if mode == "no_hands":
            return {
                "inner": JaxGuidanceParams(hand_quats=False, aria_wrists=False, max_iters=5),
                "post": JaxGuidanceParams(hand_quats=False, aria_wrists=False, max_iters=20),
            }[phase]
        elif mode == "aria_wrist_only":
            return {
                "inner": JaxGuidanceParams(hand_quats=False, aria_wrists=True, max_iters=5),
                "post": JaxGuidanceParams(hand_quats=False, aria_wrists=True, max_iters=20),
            }[phase]
        else:
            assert False


def solve(cost_fn, initial_vals, lambda_initial, max_iterations, verbose):
    """Damped gradient steps; keeps a per-iteration cost history for debugging."""
    cost_history = jnp.zeros((max_iterations,))

    def body(i, carry):
        vals, history = carry
        cost, grad = jax.value_and_grad(cost_fn)(vals)
        vals = vals - grad / (1.0 + 1.0 / lambda_initial)
        return vals, history.at[i].set(cost)

    vals, cost_history = jax.lax.fori_loop(
        0, max_iterations, body, (initial_vals, cost_history)
    )
    return vals, cost_history


@partial(jax.jit, static_argnames=("verbose",))
def _optimize_vmapped(
    Ts_world_cpf: jax.Array,
    body_pos: jax.Array,
    contacts: jax.Array,
    guidance_params: JaxGuidanceParams,
    verbose: bool,
) -> tuple[jax.Array, dict]:
    return jax.vmap(
        partial(
            _optimize,
            Ts_world_cpf=Ts_world_cpf,
            guidance_params=guidance_params,
            verbose=verbose,
        )
    )(
        body_pos=body_pos,
        contacts=contacts,
    )


def _optimize(
    Ts_world_cpf: jax.Array,
    body_pos: jax.Array,
    contacts: jax.Array,
    guidance_params: JaxGuidanceParams,
    verbose: bool,
) -> tuple[jax.Array, dict]:
    timesteps = body_pos.shape[0]
    assert Ts_world_cpf.shape == (timesteps, 3)
    assert contacts.shape == (timesteps,)

    init_pos = body_pos + Ts_world_cpf
    pairwise_contacts = (contacts[:-1] + contacts[1:]) / 2.0

    def cost(pos):
        reg = guidance_params.prior_pos_weight * jnp.sum((pos - init_pos) ** 2)
        smooth = guidance_params.body_quat_smoothness_weight * jnp.sum(
            (pos[1:] - pos[:-1]) ** 2
        )
        skate = guidance_params.skate_weight * jnp.sum(
            pairwise_contacts[:, None] * (pos[1:] - pos[:-1]) ** 2
        )
        return (reg + smooth + skate) / timesteps

    solution, cost_history = solve(
        cost,
        init_pos,
        lambda_initial=guidance_params.lambda_initial,
        max_iterations=guidance_params.max_iters,
        verbose=verbose,
    )
    return solution, {"final_cost": cost_history[-1]}


def do_guidance_optimization(Ts_world_cpf, body_pos, contacts, guidance_mode, phase, verbose):
    guidance_params = JaxGuidanceParams.defaults(guidance_mode, phase)
    return _optimize_vmapped(
        Ts_world_cpf=Ts_world_cpf,
        body_pos=body_pos,
        contacts=contacts,
        guidance_params=guidance_params,
        verbose=verbose,
    )


rng = onp.random.default_rng(0)
Ts_world_cpf = jnp.asarray(rng.normal(size=(6, 3)), dtype=jnp.float32)
body_pos = jnp.asarray(rng.normal(size=(2, 6, 3)), dtype=jnp.float32)
contacts = jnp.asarray(rng.uniform(size=(2, 6)), dtype=jnp.float32)

quats, debug_info = do_guidance_optimization(
    Ts_world_cpf, body_pos, contacts, "no_hands", "inner", verbose=False
)
print(onp.round(onp.asarray(quats, dtype=onp.float64), 4).tolist())
print(onp.round(onp.asarray(debug_info["final_cost"], dtype=onp.float64), 4).tolist())
