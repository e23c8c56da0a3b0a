# C: what lax.fori_loop accepts as a traced upper bound (the count a JAX301 rewrite passes it).
import jax
import jax.numpy as jnp
from jax import lax


def show(label, thunk):
    try:
        print(f"{label:40s} OK   {thunk()}")
    except Exception as e:  # noqa: BLE001
        print(f"{label:40s} FAIL {type(e).__name__}: {str(e).splitlines()[0]}")


def doubled(n):
    return jax.jit(lambda n: lax.fori_loop(0, n, lambda i, c: c * 2, 1.0))(n)


show("int32 3", lambda: doubled(jnp.array(3)))
show("int16 3", lambda: doubled(jnp.array(3, dtype=jnp.int16)))
show("int32 -2 (no step, as range(-2))", lambda: doubled(jnp.array(-2)))
show("float32 2.5 (int() used to truncate)", lambda: doubled(jnp.array(2.5)))
show("uint8 3", lambda: doubled(jnp.array(3, dtype=jnp.uint8)))
show("bool True", lambda: doubled(jnp.array(True)))
show("int32 shape (1,) (.item() accepted it)", lambda: doubled(jnp.array([2])))
show("vmap over [0, 1, 3]", lambda: jax.vmap(doubled)(jnp.array([0, 1, 3])))
