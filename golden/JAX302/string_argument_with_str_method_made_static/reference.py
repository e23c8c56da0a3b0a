from functools import partial

import jax
import numpy as np


@partial(jax.jit, static_argnames=["msg"])
def print_yay(arr, msg):
    print(msg)
    print(arr)
    if msg.startswith("this"):
        return arr * 2
    return arr - 1


out = print_yay(np.array([5, 3, 2, 2020]), "this is my message!")
print(out)
