# Cut down from anhinga/2024-jax-drafts (superfluid): Python's max as relu, on values read out of
# a dict of parameters that optax trains under jit.
import jax
import jax.numpy as jnp


def relu(x):
    return jax.nn.relu(x)


def getn(v_value):
    return v_value.get(':number', 0.0)


def compare_scalars(all_inputs):
    x = getn(all_inputs.get('x', {}))
    y = getn(all_inputs.get('y', {}))
    return {'true': {':number': relu(x - y)}, 'false': {':number': relu(y - x)}}


def loss_fn(changing_output):
    result = compare_scalars(changing_output)
    return (result['true'][':number'] - 0.3) ** 2 + (result['false'][':number'] - 0.5) ** 2


@jax.jit
def step(changing_output):
    loss, grads = jax.value_and_grad(loss_fn)(changing_output)
    new_tree = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, changing_output, grads)
    return new_tree, loss


changing_output = {'x': {':number': 0.9}, 'y': {':number': 0.2}}
for n_step in range(3):
    changing_output, loss = step(changing_output)
    print(f'step: {n_step} loss: {loss}')
print(jax.tree_util.tree_map(lambda x: round(float(x), 4), changing_output))
