import jax.numpy as jnp

from jax.lax import cond


def length_vector(u):
    """
    Calculate the length of a vector along its columns.
    """
    return jnp.linalg.norm(u, axis=-1, keepdims=True)


def subtract_vectors(u, v):
    """
    Subtract two vectors.
    """
    return u - v


def vector_projection(u, v):
    """
    Calculates the orthogonal projection of u onto v.
    """
    l2 = jnp.sum(v ** 2)
    x = (u @ jnp.transpose(v)) / l2

    return v * x


def closest_point_on_line(point, line):
    """
    Computes the closest location on a line to a supplied point.
    """
    a, b = line
    ab = b - a
    ap = point - a
    c = vector_projection(ap, ab)

    return a + c


def closest_point_on_segment(point, segment):
    """
    Calculate the closest location on a segment to an input point.
    """
    a, b = segment
    p = closest_point_on_line(point, segment)

    # calculate distances to the three possible points
    d = distance_point_point_sqrd(a, b)
    d1 = distance_point_point_sqrd(a, p)
    d2 = distance_point_point_sqrd(b, p)

    # define callables to be compatible with the signature of lax.cond
    def start_point():
        return a

    def end_point():
        return b

    def middle_point():
        return p

    def point_is_outside():
        return cond(d1 < d2, start_point, end_point)

    # return closest amont the three points
    return cond(jnp.logical_or(d1 > d, d2 > d), point_is_outside, middle_point)


def distance_point_point_sqrd(u, v):
    """
    Calculate the square of the distance between two points.
    """
    vector = subtract_vectors(u, v)

    return jnp.sum(jnp.square(vector))


if __name__ == "__main__":
    from jax import jit

    point_a = [1.0, 0.0, 0.0]
    point_b = [2.5, 0.0, 0.0]

    segment = tuple([jnp.array(point) for point in (point_a, point_b)])

    test_points = [[2.0, 1.0, 0.0],
                   [-1.0, 0.0, 0.0],
                   [5.0, -1.0, 0.0]]

    result_points = [[2.0, 0.0, 0.0],
                     [1.0, 0.0, 0.0],
                     [2.5, 0.0, 0.0]
                     ]

    for tpoint, rpoint in zip(test_points, result_points):
        cpoint = jit(closest_point_on_segment)(jnp.array(tpoint), segment)
        assert jnp.allclose(cpoint, jnp.array(rpoint)), f"got {cpoint} wanted {rpoint}"

    print("okay!")
