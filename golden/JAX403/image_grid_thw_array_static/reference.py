# Hand fix for jax-ml/bonsai#170: the grid sizes are shape information, so keep
# them out of the traced arguments: bind them with functools.partial (as plain
# Python ints) before jitting, instead of passing an array in a static slot.
import functools

import jax
import jax.numpy as jnp
import numpy as np


def model(input_ids, pixel_values, image_grid_thw, token_type_ids):
    vision = []
    start = 0
    for t, h, w in image_grid_thw:
        n = int(t * h * w)
        patches = pixel_values[start:start + n].reshape(int(t), int(h), int(w), -1)
        vision.append(patches.mean(axis=(0, 1, 2)))
        start += n
    vision = jnp.stack(vision).sum(axis=0)
    logits = (input_ids[..., None] + token_type_ids[..., None]) * vision
    return logits


def _forward_vision(image_grid_thw, input_ids, pixel_values, token_type_ids):
    logits = model(input_ids, pixel_values, image_grid_thw, token_type_ids)
    return logits[:, -1, :]


def main():
    inputs_vision = {
        "input_ids": np.arange(6, dtype=np.float32).reshape(1, 6),
        "pixel_values": np.linspace(0.0, 1.0, 12 * 3, dtype=np.float32).reshape(12, 3),
        "image_grid_thw": np.array([[1, 2, 2], [2, 2, 2]]),
    }
    input_ids = jnp.array(inputs_vision["input_ids"])
    token_type_ids = jnp.zeros_like(input_ids)
    if "pixel_values" in inputs_vision:
        pixel_values = jnp.array(inputs_vision["pixel_values"])
        image_grid_thw = [[int(v) for v in row] for row in inputs_vision["image_grid_thw"]]
    _forward_vision_jit = jax.jit(functools.partial(_forward_vision, image_grid_thw))
    out = _forward_vision_jit(input_ids, pixel_values, token_type_ids)
    print(out.shape, out.round(4).tolist())


main()
