# Look-alike of jraph#55 that works: a NamedTuple of arrays, built by a helper,
# goes to a jitted readout whose Python `if` reads only its static length.
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Graph(NamedTuple):
    nodes: jnp.ndarray
    n_node: jnp.ndarray


def count_graphs(graph):
    return len(graph.n_node)


def build(sizes):
    total = int(sum(sizes))
    return Graph(nodes=jnp.arange(float(total)), n_node=jnp.array(sizes))


@jax.jit
def readout(graph):
    if count_graphs(graph) > 1:
        return jnp.sum(graph.nodes) / count_graphs(graph)
    return jnp.sum(graph.nodes)


print(readout(build([3])), readout(build([2, 2])))
