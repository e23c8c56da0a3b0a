# Cut down from jax-ml/jax#18405 (checkpoint static parameter has to be called
# as positional argument).
from functools import partial

from jax import jit, checkpoint


@partial(jit, static_argnums=1)
@partial(checkpoint, static_argnums=1)
def f(x, flag=False):
    if flag:
        x += 1
    return x


print(f(5, True))  # fine
print(f(5, False))  # raise error below, no problem if only jit though
