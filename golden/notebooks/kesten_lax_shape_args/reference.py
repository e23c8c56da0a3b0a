# Hand fix of QuantEcon/lecture-jax#315 (cells in order, magics dropped): the
# shape and loop-bound arguments T and M are static.
import jax
import jax.numpy as jnp
from jax import random, lax
from functools import partial


@partial(jax.jit, static_argnums=(7, 8))
def generate_draws_lax(μ_a=-0.5, σ_a=0.1, μ_b=0.0, σ_b=0.5, μ_e=0.0, σ_e=0.5,
                       s_bar=1.0, T=50, M=1_000, s_init=1.0, seed=123):
    key = random.PRNGKey(seed)
    keys = random.split(key, 3)
    a_random = μ_a + σ_a * random.normal(keys[0], (T, M))
    b_random = μ_b + σ_b * random.normal(keys[1], (T, M))
    e_random = μ_e + σ_e * random.normal(keys[2], (T, M))
    s = jnp.full((M, ), s_init)

    def update_s(i, s):
        a, b, e = a_random[i], b_random[i], e_random[i]
        return jnp.where(s < s_bar, jnp.exp(e), jnp.exp(a) * s + jnp.exp(b))

    return lax.fori_loop(0, T, update_s, s)


data = generate_draws_lax().block_until_ready()
print(data.shape, round(float(jnp.median(data)), 3))
data = generate_draws_lax(M=500).block_until_ready()
print(data.shape, round(float(jnp.median(data)), 3))
