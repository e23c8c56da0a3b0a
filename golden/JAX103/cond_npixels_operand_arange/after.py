# Cut down from LouisDesdoigts/dLux#260 (ConcretizationTypeError in nd_coords):
# a detector layer picks one of two paths with jax.lax.cond, and the branch
# builds pixel coordinates with nd_coords(npixels, ...), npixels being one of
# the cond operands. The eqx.Module layer is re-staged as a plain class.
import jax
import jax.numpy as np
from functools import partial


def pixel_fn(n, offset, scale):
    # TODO: calculate the start and end points first and then use linspace
    # so that ops are done on floats not arrays
    # scale = diam / n
    pix = np.arange(n) - (n - 1) / 2.0
    pix *= scale
    pix -= offset
    return pix


def nd_coords(npixels, pixel_scales=1.0, offsets=0.0):
    return pixel_fn(npixels, offsets, pixel_scales)


class ApplyJitter:
    def __init__(self, npixels, pixel_scale):
        self.npixels = npixels
        self.pixel_scale = pixel_scale

    def coords(self, jitter, npixels):
        return nd_coords(npixels, self.pixel_scale, jitter)

    def apply(self, jitter, use_jitter):
        return jax.lax.cond(
            use_jitter,
            partial(lambda jitter, npixels: self.coords(jitter, npixels), npixels=self.npixels),
            partial(lambda jitter, npixels: nd_coords(npixels, self.pixel_scale), npixels=self.npixels),
            jitter)


layer = ApplyJitter(npixels=4, pixel_scale=0.5)
print(layer.apply(np.array(0.1), True))
print(layer.apply(np.array(0.1), False))
