# The resolution of jax-ml/jax#4418 (jakevdp's answer): under jit the mask comes
# from the three-argument np_jax.where, and the one-argument form, whose size is
# data-dependent, is only used eagerly, outside jit.
import jax
import jax.numpy as np_jax


@jax.jit
def make_mask(Dataset):
    keep = np_jax.where(~Dataset[:, 0].any(axis=2), 0, 1)
    return np_jax.ones(Dataset.shape) * keep[:, :, None, None]


Dataset = np_jax.zeros((3, 3, 3, 2)).at[0, 0, 1].set(1.).at[2, 0, 0].set(5.)
mask = make_mask(Dataset)
ax1, ax2 = np_jax.where(~Dataset[:, 0].any(axis=2))
print(mask.shape, mask[:, :, 0, 0].astype(int).tolist(), len(ax1))
