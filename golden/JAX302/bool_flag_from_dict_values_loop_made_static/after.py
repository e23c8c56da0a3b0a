# A jitted helper takes a plain Python bool flag and branches on it with a
# Python `if` (example from jax-ml/jax PR #22098), driven from a small table of
# per-run options.
import jax
import jax.numpy as jnp
from functools import partial


@partial(jax.jit, static_argnames=("qiaoqiao",))
def f(qiaoqiao):
    if True and qiaoqiao:
        return 1
    return 0


RUNS = {"warmup": False, "main": True, "cooldown": False}


def count_active(runs):
    return sum(int(f(flag)) for flag in runs.values())


if __name__ == "__main__":
    print(count_active(RUNS))
