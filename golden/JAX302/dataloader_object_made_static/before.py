import jax
import numpy as np


class Dataset:
    def __init__(self, X, Y):
        self.X, self.Y = X, Y


class DataLoaderJax:
    """Cut-down stand-in for jax_dataloader.core.DataLoaderJax (a plain Python iterator)."""

    def __init__(self, ds, batch_size, shuffle=False, drop_last=False):
        self.ds, self.batch_size = ds, batch_size

    def __iter__(self):
        for i in range(0, len(self.ds.X), self.batch_size):
            yield self.ds.X[i:i + self.batch_size], self.ds.Y[i:i + self.batch_size]


X = np.arange(20 * 28 * 28, dtype=np.float32).reshape(20, 28, 28)
Y = np.arange(20) % 10
ds = Dataset(X, Y)
train_loader = DataLoaderJax(ds, batch_size=5, shuffle=False, drop_last=False)


@jax.jit
def foo(train_loader):
    train_iter = iter(train_loader)
    Xtr, Ytr = next(train_iter)
    return Xtr.sum(), Ytr.sum()


print(foo(train_loader))
