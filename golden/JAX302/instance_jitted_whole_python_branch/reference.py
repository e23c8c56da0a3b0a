import jax
import jax.numpy as xp
import jax.scipy.special as scs


def truncnorm(xx, mu, sigma, high, low):
    norm = 2**0.5 / xp.pi**0.5 / sigma
    norm /= scs.erf((high - mu) / 2**0.5 / sigma) + scs.erf((mu - low) / 2**0.5 / sigma)
    prob = xp.exp(-xp.power(xx - mu, 2) / (2 * sigma**2)) * norm
    return prob * ((xx <= high) & (xx >= low))


def unnormalized_2d_gaussian(xx, yy, mu_x, mu_y, sigma_x, sigma_y, covariance):
    determinant = sigma_x**2 * sigma_y**2 * (1 - covariance)
    residual_x = (mu_x - xx) * sigma_y
    residual_y = (mu_y - yy) * sigma_x
    return xp.exp(
        -(residual_x**2 + residual_y**2 - 2 * residual_x * residual_y * covariance)
        / 2 / determinant
    )


def gaussian_chi_eff(dataset, mu_chi_eff, sigma_chi_eff):
    return truncnorm(dataset["chi_eff"], mu=mu_chi_eff, sigma=sigma_chi_eff, low=-1, high=1)

def gaussian_chi_p(dataset, mu_chi_p, sigma_chi_p):
    return truncnorm(dataset["chi_p"], mu=mu_chi_p, sigma=sigma_chi_p, low=0, high=1)


class GaussianChiEffChiP(object):
    def __init__(self):
        self.chi_eff = xp.linspace(-1, 1, 500)
        self.chi_p = xp.linspace(0, 1, 250)
        self.chi_eff_grid, self.chi_p_grid = xp.meshgrid(self.chi_eff, self.chi_p)

    def __call__(
        self, dataset, mu_chi_eff, sigma_chi_eff, mu_chi_p, sigma_chi_p, spin_covariance
    ):
        prob = unnormalized_2d_gaussian(
            dataset["chi_eff"], dataset["chi_p"], mu_chi_eff, mu_chi_p,
            sigma_chi_eff, sigma_chi_p, spin_covariance,
        )
        normalization = self._normalization(
            mu_chi_eff=mu_chi_eff, sigma_chi_eff=sigma_chi_eff, mu_chi_p=mu_chi_p,
            sigma_chi_p=sigma_chi_p, spin_covariance=spin_covariance,
        )
        prob /= normalization
        prob *= xp.abs(dataset["chi_eff"]) <= 1
        prob *= (dataset["chi_p"] <= 1) * (dataset["chi_p"] >= 0)
        return prob

    def _normalization(self, mu_chi_eff, sigma_chi_eff, mu_chi_p, sigma_chi_p, spin_covariance):
        prob = unnormalized_2d_gaussian(
            self.chi_eff_grid, self.chi_p_grid, mu_chi_eff, mu_chi_p,
            sigma_chi_eff, sigma_chi_p, spin_covariance,
        )
        return xp.trapezoid(
            y=xp.trapezoid(y=prob, axis=-1, x=self.chi_eff), axis=-1, x=self.chi_p
        )


model = GaussianChiEffChiP()
dataset = dict(chi_eff=xp.array([-0.2, 0.05, 0.3]), chi_p=xp.array([0.1, 0.4, 0.7]))
params = dict(mu_chi_eff=0.05, sigma_chi_eff=0.1, mu_chi_p=0.2, sigma_chi_p=0.2, spin_covariance=0.3)
print("eager:", [round(float(v), 3) for v in model(dataset, **params)])
jitted = jax.jit(model)
print("jit:  ", [round(float(v), 3) for v in jitted(dataset, **params)])
