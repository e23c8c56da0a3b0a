# Hand fix of jax-ml/jax#18405: checkpoint only takes static arguments by
# position, so the call passes flag positionally.
from functools import partial

from jax import jit, checkpoint


@partial(jit, static_argnums=1)
@partial(checkpoint, static_argnums=1)
def f(x, flag=False):
    if flag:
        x += 1
    return x


print(f(5, True))
print(f(5, False))
