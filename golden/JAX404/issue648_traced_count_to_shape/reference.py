# Hand fix: the count is a Python int at every call, so both jits take it as static.
import jax


def sample(key, n):
    return jax.random.randint(key, (n,), 0, 10)


def batch_mean(key, n):
    return jax.jit(sample, static_argnums=1)(key, n).mean()


print(jax.jit(batch_mean, static_argnums=1)(jax.random.PRNGKey(0), 4))
