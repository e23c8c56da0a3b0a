# Cut down from google/objax#204 ("Jit error for static_argument in a custom jax
# function"): a layer keeps only the top-K weights by score; the layer's call
# goes through a jitted forward function that receives self.topK as an argument.
import jax
from functools import partial
import jax.numpy as jn
from jax import lax


def select_topK(w, b, w_score, b_score, topk):
    values = jn.concatenate((w_score, b_score), axis=None)
    v, inds = lax.top_k(values, topk)
    thresh = v.min()
    return jn.where(w_score > thresh, w, 0), jn.where(b_score > thresh, b, 0)


@partial(jax.jit, static_argnums=(4,))
def topk_forward(w, b, w_score, b_score, topK, x):
    w, b = select_topK(w, b, w_score, b_score, topK)
    return jn.dot(x, w) + b


class TopKLinear:
    def __init__(self, nin, nout, topK):
        self.w = jn.arange(nin * nout, dtype=jn.float32).reshape(nin, nout) / 10.
        self.b = jn.ones(nout, dtype=jn.float32)
        self.w_score = jn.cos(jn.arange(nin * nout, dtype=jn.float32)).reshape(nin, nout)
        self.b_score = jn.sin(jn.arange(nout, dtype=jn.float32))
        self.topK = topK

    def __call__(self, x):
        return topk_forward(self.w, self.b, self.w_score, self.b_score, self.topK, x)


layer = TopKLinear(4, 3, topK=5)
x = jn.ones((2, 4))
y = layer(x)
print([[round(float(v), 3) for v in row] for row in y])
