# Cut down from jax-ml/jax#1461 ("confusing behaviour for `and` vs `&`").
# The report used the old five-argument lax.cond; here the current
# lax.cond(pred, true_fun, false_fun, operand) form.
import jax


@jax.jit
def test(cond1, cond2, a, b):
    return jax.lax.cond(cond1 & cond2, lambda x: x[0], lambda x: x[1], (a, b))


print(test(True, True, 1, 2).tolist())
print(test(True, False, 1, 2).tolist())
print(test(False, True, 3, 4).tolist())
