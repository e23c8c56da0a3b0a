import jax
import jax.numpy as jnp
import equinox as eqx


def polyak_averaging(net1, net2, tau):
    return jax.tree_util.tree_map(
        lambda w1, w2: w1*tau+w2*(1-tau), net1, net2, is_leaf=eqx.is_inexact_array)


rng = jax.random.PRNGKey(0)
rng_1, rng_2 = jax.random.split(rng)
net1 = eqx.nn.MLP(in_size=4, out_size=6, width_size=6, depth=1, activation=jax.nn.tanh, final_activation=jax.nn.tanh, key=rng_1)
net2 = eqx.nn.MLP(in_size=4, out_size=6, width_size=6, depth=1, activation=jax.nn.tanh, final_activation=jax.nn.tanh, key=rng_2)

for i in jnp.arange(2):
    net2 = jax.lax.cond(
        i % 2 == 0,
        lambda net1__net2: polyak_averaging(net1__net2[0], net1__net2[1], 0.1),
        lambda net1__net2: net1__net2[1],
        (net1, net2)
    )

print(net2.layers[0].weight[0])
print(net2(jnp.ones(4)))
