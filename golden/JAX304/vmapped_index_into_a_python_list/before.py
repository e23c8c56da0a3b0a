# Cut down from jax-ml/jax#4309.
import jax
import jax.numpy as np
from jax import vmap


def getFeature(x, resMap, st, en):
    resMap = resMap.conj().T

    newMap = []
    for j in range(0, (len(resMap[:, 0]) - 1)):
        for i in range(0, (len(resMap[0]) - 1)):
            newMap.append([j, i])

    def innerLoop(n):
        Stacked = np.zeros((4, en - st))
        j, i = newMap[n]  # n should be an integer

        Stacked = Stacked.at[0, :].set(x[resMap[j, i], st:en])
        Stacked = Stacked.at[1, :].set(x[resMap[j, i + 1], st - 1:en - 1])
        Stacked = Stacked.at[2, :].set(x[resMap[j, i + 1], st:en])
        Stacked = Stacked.at[3, :].set(x[resMap[j + 1, i], st + 1:en + 1])
        return np.sum(Stacked, axis=1)

    return vmap(innerLoop)(np.arange(len(newMap)))


x = np.arange(60.0).reshape(6, 10) / 7.0
resMap = np.array([[0, 1, 2], [3, 4, 5]])
feats = getFeature(x, resMap, 2, 6)
print(feats.shape, [round(float(v), 3) for v in feats.ravel()])
