# Seed 004's solution 1 verbatim: a "dynamic length scan" with a 1-argument body.
import jax
import jax.numpy as jnp

init = jnp.ones((5,))
iterations = jnp.array([1, 2, 3])

@jax.jit
def iterate_for_steps(iters: int):
    def body_fun(carry):
        return carry * 2

    # 直接用iters作为scan的length，无需转换为Python值
    final_carry, _ = jax.lax.scan(body_fun, init, xs=None, length=iters)
    return final_carry

print(jax.vmap(iterate_for_steps)(iterations))
