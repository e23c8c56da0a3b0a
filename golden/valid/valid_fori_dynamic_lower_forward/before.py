# Valid look-alike from jax-ml/jax#9298: the same jitted f with a traced loop
# bound `lower`, but only evaluated and forward-differentiated (jvp). A traced
# fori_loop bound is fine for a while_loop; only reverse-mode grad needs it static.
from functools import partial
import jax
import jax.lax as lax

@partial(jax.jit, inline=True)
def f(init, lower):
    def _body_fun(_, _y):
        return _y + 1
    return lax.fori_loop(lower, 1, _body_fun, init)

print(f(0.0, 0), f(0.0, -2))
print(jax.jvp(lambda init: f(init, -2), (0.0,), (1.0,)))
