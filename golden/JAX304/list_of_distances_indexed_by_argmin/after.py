# Cut down from jax-ml/jax#5839 ("TypeError: list indices must be integers or
# slices, not DynamicJaxprTracer"): face matching computes cosine distances to
# every stored descriptor of each identity and keeps the smallest one.
import numpy as np
import jax.numpy as jnp
from jax import jit

rs = np.random.RandomState(0)
database = [("alice", rs.rand(3, 4).astype(np.float32)),
            ("bob", rs.rand(2, 4).astype(np.float32))]


def jax_cosine(a, b):
    return 1.0 - jnp.dot(a, b) / (jnp.linalg.norm(a) * jnp.linalg.norm(b))


@jit
def match_faces3(desc):
    distances = []
    for i, descr in enumerate(desc):
        row = []
        for j, identity in enumerate(database):
            dist = []
            for k, id_desc in enumerate(identity[1]):
                dist.append(jax_cosine(descr, id_desc))
            row.append(jnp.asarray(dist)[jnp.argmin(jnp.asarray(dist))])
        distances.append(row)
    return jnp.asarray(distances)


descriptors = jnp.asarray(rs.rand(2, 4).astype(np.float32))
print([[round(float(v), 4) for v in row] for row in match_faces3(descriptors)])
