from functools import partial
from typing import List

import jax.numpy as jnp
import jax.random as jr
from equinox import Module, field, filter_jit, tree_at
from jax import Array, lax, vmap


def generate_I_matrix(H: List[Array], B: List[Array], threshold: float, depth: int):
    """Probability of reaching the goal state backwards from state j after i steps."""
    num_factors = len(H)
    I = []
    for f in range(num_factors):
        b_reachable = jnp.where(B[f] > threshold, 1.0, 0.0).sum(axis=-1)
        b_reachable = jnp.where(b_reachable > 0., 1.0, 0.0)

        def step_fn(carry, i):
            I_prev = carry
            I_next = jnp.dot(b_reachable, I_prev)
            I_next = jnp.where(I_next > 0.1, 1.0, 0.0)
            return I_next, I_next

        _, I_f = lax.scan(step_fn, H[f], jnp.arange(depth-1))
        I_f = jnp.concatenate([H[f][None,...], I_f], axis=0)
        I.append(I_f)
    return I


class Agent(Module):
    B: List[Array]
    pB: List[Array]
    H: List[Array]
    I: List[Array]
    inductive_threshold: Array
    inductive_depth: int = field(static=True)
    batch_size: int = field(static=True)
    use_inductive: bool = field(static=True)

    def __init__(self, B, pB, H, batch_size=1, use_inductive=True,
                 inductive_depth=1, inductive_threshold=0.1):
        self.B, self.pB, self.H = B, pB, H
        self.batch_size = batch_size
        self.use_inductive = use_inductive
        self.inductive_depth = inductive_depth
        self.inductive_threshold = jnp.broadcast_to(inductive_threshold, (self.batch_size,))
        self.I = vmap(partial(generate_I_matrix, depth=self.inductive_depth))(
            H, B, self.inductive_threshold)

    @filter_jit
    def infer_parameters(self, counts, lr_pB=1.0):
        agent = self
        qB = [pb + lr_pB * c for pb, c in zip(self.pB, counts)]
        E_qB = [q / q.sum(axis=1, keepdims=True) for q in qB]
        # if you have updated your beliefs about transitions, you need to re-compute the I matrix used for inductive inferenece
        if self.use_inductive and self.H is not None:
            I_updated = vmap(generate_I_matrix, in_axes=(0, 0, 0, None))(self.H, E_qB, self.inductive_threshold, self.inductive_depth)
            agent = tree_at(lambda x: (x.B, x.pB, x.I), agent, (E_qB, qB, I_updated))
        else:
            agent = tree_at(lambda x: (x.B, x.pB), agent, (E_qB, qB))
        return agent


batch_size = 2
B = [jr.dirichlet(jr.PRNGKey(0), jnp.ones(3), (batch_size, 3, 2)).transpose(0, 3, 1, 2)]
pB = [jnp.ones_like(b) for b in B]
H = [jnp.broadcast_to(jnp.array([0.0, 0.0, 1.0]), (batch_size, 3))]
agent = Agent(B, pB, H, batch_size=batch_size, inductive_depth=3)

counts = [jnp.zeros_like(B[0]).at[:, 2, 0, 1].set(5.0)]
agent = agent.infer_parameters(counts)
print("I matrix (agent 0):\n", agent.I[0][0])
