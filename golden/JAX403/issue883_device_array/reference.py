# Hand fix: f returns x unchanged.
import jax.numpy as np

x = np.ones((2, 2))
print(x)
print(x)
