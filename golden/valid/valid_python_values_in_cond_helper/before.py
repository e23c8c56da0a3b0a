"""Cut down from jax_xc: maple2jax/impl/utils.py (lax_cond) and the generated gga_c_chachiyo functional."""
from typing import NamedTuple

import jax
import jax.lax as lax
import jax.numpy as jnp
import numpy as np


def lax_cond(a, b, c):
  if isinstance(b, int):
    b = float(b)
  if isinstance(c, int):
    c = float(c)
  return lax.cond(a, lambda _: b, lambda _: c, None)


class ChachiyoParams(NamedTuple):
  ap: float = -0.01554535
  bp: float = 20.4562557
  cp: float = 20.4562557
  af: float = -0.0077726765
  bf: float = 27.4203609
  cf: float = 27.4203609
  h: float = 0.06672632


class Functional(NamedTuple):
  params: ChachiyoParams
  nspin: int = 2
  dens_threshold: float = 1e-15
  zeta_threshold: float = 1e-10


def pol(p, r, s=(None, None, None)):
  params = p.params
  (r0, r1), (s0, s1, s2) = r, s
  t1 = jnp.cbrt(3)
  t2 = t1 ** 2
  t5 = jnp.cbrt((0.1e1 / jnp.pi))
  t7 = jnp.cbrt(4)
  t9 = r0 + r1
  t10 = jnp.cbrt(t9)
  t11 = 0.1e1 / t5 * t7 * t10
  t15 = t5 ** 2
  t17 = t7 ** 2
  t19 = t10 ** 2
  t20 = 0.1e1 / t15 * t17 * t19
  t24 = jnp.log(0.1e1 + params.bp * t2 * t11 / 0.3e1 + params.cp * t1 * t20 / 0.3e1)
  t25 = params.ap * t24
  t33 = jnp.log(0.1e1 + params.bf * t2 * t11 / 0.3e1 + params.cf * t1 * t20 / 0.3e1)
  t38 = (r0 - r1) / t9
  t39 = 0.1e1 + t38
  t41 = jnp.cbrt(p.zeta_threshold)
  t42 = t41 ** 2
  t43 = jnp.cbrt(t39)
  t44 = t43 ** 2
  t45 = lax_cond(t39 <= p.zeta_threshold, t42, t44)
  t46 = 0.1e1 - t38
  t48 = jnp.cbrt(t46)
  t49 = t48 ** 2
  t50 = lax_cond(t46 <= p.zeta_threshold, t42, t49)
  t52 = t45 / 0.2e1 + t50 / 0.2e1
  t53 = t52 ** 2
  t58 = t25 + (params.af * t33 - t25) * (-0.2e1 * t53 * t52 + 0.2e1)
  t59 = jnp.cbrt(jnp.pi)
  t61 = t9 ** 2
  t72 = (0.1e1 + t2 * t59 / t10 / t61 * (s0 + 0.2e1 * s1 + s2) / 0.48e2) ** (params.h / t58)
  res = t58 * t72
  return res


def invoke(p, rho, sigma):
  code = pol
  dens = rho[0] if p.nspin == 1 else sum(rho)
  ret = lax.cond((dens < p.dens_threshold), lambda *_: 0.,
                 lambda *_: code(p, rho, sigma), None)
  return ret


p = Functional(params=ChachiyoParams())
rho = jnp.array([[0.3, 0.2], [1.0, 1.0], [0.05, 0.01], [0.0, 0.0]])
sigma = jnp.array([[0.1, 0.05, 0.1], [0.2, 0.2, 0.2], [0.01, 0.0, 0.01], [0.0, 0.0, 0.0]])

eps = jax.jit(jax.vmap(lambda r, s: invoke(p, r, s)))(rho, sigma)
vrho = jax.jit(jax.vmap(jax.grad(lambda r, s: invoke(p, r, s))))(rho[:3], sigma[:3])
print(np.asarray(eps, dtype=np.float64).round(6).tolist())
print(np.asarray(vrho, dtype=np.float64).round(6).tolist())
