# Cut down from ott-jax/ott PR #114 ("segment_sinkhorn"): segment a point cloud
# given the number of points per segment, then call it under jax.jit.
import jax
import jax.numpy as jnp


def segment_point_cloud(x, a=None, num_segments=None, num_per_segment=None):
  """Segment and pad as needed the entries of a point cloud."""
  assert num_per_segment is not None
  assert num_segments is None or num_segments == num_per_segment.shape[0]
  num_segments = num_per_segment.shape[0]
  segment_ids = jnp.arange(num_segments).repeat(num_per_segment)

  num = x.shape[0]

  if a is None:
    a = (1 / num_per_segment).repeat(
        num_per_segment, total_repeat_length=num)

  segmented_x = jnp.stack(
      [x * (segment_ids == i)[:, None] for i in range(num_segments)])

  segmented_a = jnp.stack(
      [a * (segment_ids == i) for i in range(num_segments)])

  return segmented_x, segmented_a, num_segments


@jax.jit
def test(x):
  with jax.ensure_compile_time_eval():
    segmented_x, segmented_a, num_segments = segment_point_cloud(
        x, num_per_segment=jnp.array([3, 2]))
  return segmented_x.sum(axis=(1, 2)), segmented_a.sum(axis=1)


x = jnp.arange(15.0).reshape(5, 3)
sx, sa = test(x)
print(sx.tolist(), [round(v, 4) for v in sa.tolist()])
