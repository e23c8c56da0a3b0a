# Adapted from jax-ml/jax#5550 (example reproduced in jax PR #5558): a non-local-means
# filter `nlm(img, search_window)` jitted with search_window passed as a normal (traced)
# argument, then used as the pad width and as the range of the search loop.
# Fix: mark search_window static (it determines shapes and the Python loop).
from functools import partial
from jax import numpy as jnp
import jax
import numpy as np

img = jnp.arange(25.).reshape((5, 5)) / 25.0
search_window = 1


@partial(jax.jit, static_argnums=1)
def nlm(img, search_window, h=0.3):
    img_pad = jnp.pad(img, (search_window, search_window), mode="reflect")
    H, W = img.shape
    num = jnp.zeros_like(img)
    den = jnp.zeros_like(img)
    for dy in range(-search_window, search_window + 1):
        for dx in range(-search_window, search_window + 1):
            shifted = img_pad[search_window + dy: search_window + dy + H,
                              search_window + dx: search_window + dx + W]
            w = jnp.exp(-((shifted - img) ** 2) / h ** 2)
            num = num + w * shifted
            den = den + w
    return num / den


out = nlm(img, search_window)
print(np.round(np.asarray(out, dtype=np.float64), 4).tolist())
