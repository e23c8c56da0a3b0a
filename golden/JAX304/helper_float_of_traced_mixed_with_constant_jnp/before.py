import jax
import jax.numpy as jnp

eta0 = 376.730313668


def pml_sigma_end(thickness, resolution, order=3.0):
    pml_thickness = thickness * resolution
    sigma_end = -(order + 1) * jnp.log(1e-6) / (2 * eta0 * pml_thickness)
    return float(sigma_end)


@jax.jit
def attenuation(field, resolution):
    x = (jnp.arange(10, dtype=jnp.float32) + 0.5) / 10
    sigma = pml_sigma_end(10, resolution) * x ** 3.0
    return field[:10] * jnp.exp(-sigma)


out = attenuation(jnp.ones(32), 0.01)
print("attenuated:", [round(v, 4) for v in out.tolist()])
