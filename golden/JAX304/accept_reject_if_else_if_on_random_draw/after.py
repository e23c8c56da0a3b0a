from functools import partial

import jax.numpy as np
from jax import jit, random

N = 4

marg_1 = lambda i, x: x[i]
marg_2 = lambda i, j, x: x[i] * x[j]

marg_1s = [jit(partial(marg_1, i)) for i in range(N)]
marg_2s = [jit(partial(marg_2, i, j)) for i in range(N) for j in range(i + 1, N)]
funcs = marg_1s + marg_2s


@jit
def calc_e(factors, word):
    return np.sum(np.array([factor * func(word) for factor, func in zip(factors, funcs)]))


@jit
def sample(factors, N=N, seed=0, n_samps=5):
    key = random.PRNGKey(seed)
    key, subkey = random.split(key)

    state = random.randint(subkey, minval=0, maxval=2, shape=(N,))
    all_states = []

    for _ in range(n_samps):
        all_states.append(state)
        for i in range(N):
            # flip sign
            state_flipped = state.at[i].set(1 - state[i])
            # calc energy difference
            dE = calc_e(factors, state_flipped) - calc_e(factors, state)
            key, subkey = random.split(key)
            rand = random.uniform(subkey, shape=())
            state = np.where(dE < 0, state_flipped, np.where(rand < np.exp(-dE), state_flipped, state))
    return all_states


factors = np.linspace(-1.0, 1.0, len(funcs))
states = sample(factors)
print([s.tolist() for s in states])
