import jax.numpy as np
import numpy as onp
from jax import grad, jit, lax, vmap
from jax.example_libraries import optimizers


def rnn_fun(h):
    W = 0.9 * np.eye(h.shape[0])
    return np.tanh(W @ h)


def get_total_fp_loss_fun(rnn_fun):
    batch_rnn_fun = vmap(rnn_fun, in_axes=(0,))
    return jit(lambda h: np.mean((h - batch_rnn_fun(h)) ** 2))


def optimize_fp_core(batch_idx_start, num_batches, update_fun, opt_state):
    def run_update(batch_idx, opt_state):
        opt_state = update_fun(batch_idx, opt_state)
        return opt_state

    lower = batch_idx_start
    upper = batch_idx_start + num_batches
    return lax.fori_loop(lower, upper, run_update, opt_state)


optimize_fp_core_jit = jit(optimize_fp_core, static_argnums=(1, 2))


def optimize_fps(rnn_fun, fp_candidates, num_batches=20, print_every=10):
    total_fp_loss_fun = get_total_fp_loss_fun(rnn_fun)
    opt_init, opt_update, get_params = optimizers.adam(step_size=0.05)

    def update(i, opt_state):
        params = get_params(opt_state)
        grads = grad(total_fp_loss_fun)(params)
        return opt_update(i, grads, opt_state)

    opt_state = opt_init(fp_candidates)
    for oidx in range(num_batches // print_every):
        batch_idx_start = oidx * print_every
        opt_state = optimize_fp_core_jit(batch_idx_start, print_every, update,
                                         opt_state)
        print("loss", float(total_fp_loss_fun(get_params(opt_state))))
    return get_params(opt_state)


candidates = onp.random.RandomState(0).randn(16, 4).astype(onp.float32)
fps = optimize_fps(rnn_fun, candidates)
print(fps.shape)
