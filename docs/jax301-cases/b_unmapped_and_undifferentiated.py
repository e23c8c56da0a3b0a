# B: arguments a transform does not map or differentiate reach the function unchanged.
import jax
import jax.numpy as jnp


def kind(v):
    return "tracer" if isinstance(v, jax.core.Tracer) else type(v).__name__


def show(label, thunk):
    seen = []
    thunk(seen)
    print(f"{label:52s} {seen[0]}")


show("vmap in_axes=(0, None), n=5", lambda s: jax.vmap(lambda x, n: (s.append(kind(n)), x)[1], in_axes=(0, None))(jnp.ones(3), 5))
show("vmap default in_axes, n=jnp.arange(3)", lambda s: jax.vmap(lambda x, n: (s.append(kind(n)), x)[1])(jnp.ones(3), jnp.arange(3)))
show("grad (argnums=0), n=5", lambda s: jax.grad(lambda x, n: (s.append(kind(n)), x * n)[1])(1.0, 5))
show("grad (argnums=0), n=jnp.array(5)", lambda s: jax.grad(lambda x, n: (s.append(kind(n)), x * n)[1])(1.0, jnp.array(5)))
show("grad argnums=(0, 1), n=5.0", lambda s: jax.grad(lambda x, n: (s.append(kind(n)), x * n)[1], argnums=(0, 1))(1.0, 5.0))
