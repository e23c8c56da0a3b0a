# Lens-image simulator whose jitted `model` method marks the wrong argument
# positions as static (Herculens commit 8175191).
from functools import partial

import jax
import jax.numpy as np
from jax import jit
from jax.scipy.signal import convolve2d


class PixelGrid(object):
    def __init__(self, nx, ny, pixel_width):
        self.num_pixel_axes = (ny, nx)
        self.pixel_width = pixel_width
        xs = (np.arange(nx) - (nx - 1) / 2.) * pixel_width
        ys = (np.arange(ny) - (ny - 1) / 2.) * pixel_width
        self.x_grid, self.y_grid = np.meshgrid(xs, ys)


def sersic(x, y, amp, R_sersic, n_sersic, center_x=0., center_y=0.):
    r = np.sqrt((x - center_x) ** 2 + (y - center_y) ** 2) + 1e-6
    b_n = 1.9992 * n_sersic - 0.3271
    return amp * np.exp(-b_n * ((r / R_sersic) ** (1. / n_sersic) - 1.))


def sis_deflection(x, y, theta_E, center_x=0., center_y=0.):
    dx, dy = x - center_x, y - center_y
    r = np.sqrt(dx ** 2 + dy ** 2) + 1e-6
    return theta_E * dx / r, theta_E * dy / r


class LensImage(object):
    """Generate lensed images from source light and lens mass/light models."""

    def __init__(self, grid_class, psf_kernel):
        self.Grid = grid_class
        self.kernel = psf_kernel

    def source_surface_brightness(self, kwargs_source, kwargs_lens, unconvolved=False):
        beta_x, beta_y = self.Grid.x_grid, self.Grid.y_grid
        for kw in kwargs_lens:
            ax, ay = sis_deflection(self.Grid.x_grid, self.Grid.y_grid, **kw)
            beta_x, beta_y = beta_x - ax, beta_y - ay
        flux = sum(sersic(beta_x, beta_y, **kw) for kw in kwargs_source)
        return flux if unconvolved else convolve2d(flux, self.kernel, mode='same')

    def lens_surface_brightness(self, kwargs_lens_light, unconvolved=False):
        flux = sum(sersic(self.Grid.x_grid, self.Grid.y_grid, **kw)
                   for kw in kwargs_lens_light)
        return flux if unconvolved else convolve2d(flux, self.kernel, mode='same')

    @partial(jit, static_argnums=(0, 4, 5, 6))
    def model(self, kwargs_lens=None, kwargs_source=None,
              kwargs_lens_light=None, unconvolved=False, source_add=True,
              lens_light_add=True):
        model = np.zeros((self.Grid.num_pixel_axes))
        if source_add is True:
            model += self.source_surface_brightness(kwargs_source, kwargs_lens,
                                                    unconvolved=unconvolved)
        if lens_light_add is True:
            model += self.lens_surface_brightness(kwargs_lens_light,
                                                  unconvolved=unconvolved)
        return model


grid = PixelGrid(32, 32, 0.1)
psf = np.outer(np.array([0.25, 0.5, 0.25]), np.array([0.25, 0.5, 0.25]))
lens_image = LensImage(grid, psf)

kwargs_lens = [{'theta_E': 0.8, 'center_x': 0.0, 'center_y': 0.0}]
kwargs_source = [{'amp': 5.0, 'R_sersic': 0.2, 'n_sersic': 1.5, 'center_x': 0.05}]
kwargs_lens_light = [{'amp': 3.0, 'R_sersic': 0.5, 'n_sersic': 3.0}]

image = lens_image.model(kwargs_lens=kwargs_lens, kwargs_source=kwargs_source,
                         kwargs_lens_light=kwargs_lens_light)
print("image sum:", round(float(image.sum()), 3))
print("peak:", round(float(image.max()), 4))
