# Cut down from https://github.com/jax-ml/jax/issues/4858
# A Kronecker product of diagonals, split in halves recursively; lax.cond stops the recursion.
from jax import numpy as jnp
from jax import lax


def diag_kron_lax(diag_operators):
    length = diag_operators.shape[0]

    def true_branch(_):
        return diag_operators.reshape(-1)

    def false_branch(_):
        oper1 = diag_kron_lax(diag_operators[:length//2])
        oper2 = diag_kron_lax(diag_operators[length//2:])
        return jnp.einsum('i,j->ij', oper1, oper2).reshape(-1)

    return lax.cond(length==1, true_branch, false_branch, operand=None)


print(diag_kron_lax(jnp.arange(10).reshape(2, -1)).tolist())
