"""JAX305 decisions beside its golden case: look-alikes that run, and the shapes only reported."""

from __future__ import annotations

import textwrap

import pytest

from jaxfix.transforms import Options, check_source, fix_source

from .helpers import run_in_process

HEADER = textwrap.dedent(
    """\
    import jax
    import jax.numpy as jnp

    xs = jnp.array([-1.0, 2.0])
    """
)


def results(body: str):
    return check_source(HEADER + textwrap.dedent(body), Options())


def test_ifs_on_what_stays_concrete_under_vmap_get_no_finding() -> None:
    """Array metadata, an unmapped Python value, and a function only jitted (JAX302's) are left alone."""
    body = """\
        def shaped(x):
            if x.shape[0] > 2:
                return x.sum()
            return x.mean()

        def counted(x, n):
            if n > 2:
                return x * n
            return x

        print(jax.vmap(shaped)(jnp.ones((2, 3))))
        print(jax.vmap(counted, in_axes=(0, None))(xs, 3))
        """
    assert results(body) == []


def test_the_two_return_shape_becomes_a_selection_and_runs_alike() -> None:
    body = """\
        def relu_ish(x):
            if x > 0:
                return x * 2.0
            return x / 2.0

        print(jax.vmap(relu_ish)(xs))
        print(jax.grad(relu_ish)(1.0))
        """
    found = results(body)
    assert [(f.code, f.line, f.fix is not None) for f in found] == [("JAX305", 6, True)]
    fixed = fix_source(HEADER + textwrap.dedent(body), Options()).text
    assert "    return jnp.where(x > 0, x * 2.0, x / 2.0)\n\n" in fixed
    assert "if x > 0" not in fixed


def test_other_shapes_are_reported_with_the_options() -> None:
    body = """\
        def pair(x):
            if x > 0:
                return x, x
            return x, -x

        def noted(x):
            if x > 0:
                return x  # keep
            return -x

        def also_direct(x):
            if x > 0:
                return x
            return -x

        def effect(x):
            if x > 0:
                print("positive")
                return x
            return -x

        print(jax.vmap(pair)(xs), jax.vmap(noted)(xs), jax.vmap(also_direct)(xs), also_direct(2.0), jax.vmap(effect)(xs))
        """
    found = results(body)
    assert [(f.code, f.line, f.fix is not None) for f in found] == [
        ("JAX305", 6, False),
        ("JAX305", 11, True),  # a comment in the arms moves above the selection
        ("JAX305", 16, False),
        ("JAX305", 21, False),
    ]
    assert "also called directly" in found[2].message
    fixed = fix_source(HEADER + textwrap.dedent(body), Options()).text
    assert "    # keep\n    return jnp.where(x > 0, x, -x)\n" in fixed


def test_an_if_under_grad_alone_works_and_gets_no_finding() -> None:
    """grad, jacfwd, jacrev and hessian differentiate at concrete values: the `if` runs (measured)."""
    body = """\
        def piecewise(x):
            if x > 0:
                return x * 2.0
            return x / 2.0

        print(jax.grad(piecewise)(1.0), jax.jacfwd(piecewise)(1.0), jax.hessian(piecewise)(1.0))
        """
    assert results(body) == []


def test_truthiness_of_what_may_be_a_pytree_is_not_claimed() -> None:
    """brax positional/joints.py: `if limit:` under vmap where `limit` is a tuple of arrays (truthy
    whatever it holds); and a dict pytree iterated by key. Only an order comparison shows an array."""
    body = """\
        def update(x, limit):
            if limit:
                return x + limit[0]
            return x

        def views(obs):
            out = 0.0
            for key, value in obs.items():
                if key.startswith("pixels/"):
                    out = out + value.sum()
            return out

        print(jax.vmap(update)(xs, (xs, xs)))
        print(jax.vmap(views)({"pixels/a": jnp.ones((2, 3))}))
        """
    assert results(body) == []


def test_an_if_that_assigns_one_name_becomes_a_selection_and_runs_alike() -> None:
    """``if c: lr = a`` / ``else: lr = b`` (flax#1903's schedule), and ``if c: x = a`` with no
    ``else`` after ``x`` got a computed value: ``x = jnp.where(c, a, x)`` keeps what it held."""
    body = """\
        def schedule(step):
            if step < 1.0:
                lr = step * 0.1
            else:
                lr = 0.1 / step
            return lr

        def bumped(x):
            y = x * 3.0
            if x > 0:
                y = y + 1.0
            return y

        SCHEDULE, BUMPED = jax.vmap(schedule)(xs), jax.vmap(bumped)(xs)
        """
    found = results(body)
    assert [(f.code, f.line, f.fix is not None) for f in found] == [("JAX305", 6, True), ("JAX305", 14, True)]
    fixed = fix_source(HEADER + textwrap.dedent(body), Options()).text
    assert "    lr = jnp.where(step < 1.0, step * 0.1, 0.1 / step)\n    return lr\n" in fixed
    assert "    y = jnp.where(x > 0, y + 1.0, y)\n    return y\n" in fixed
    ran = run_in_process(fixed)
    assert ran["SCHEDULE"].tolist() == pytest.approx([-0.1, 0.05]) and ran["BUMPED"].tolist() == [-3.0, 7.0]


def test_an_assignment_whose_earlier_value_is_not_shown_is_reported() -> None:
    """No ``else``, and the name is a parameter (it may be a tuple jnp.where cannot take), or its
    last assignment above sits in a loop that may not run: reported, not rewritten."""
    body = """\
        def kept(x, y):
            if x > 0:
                y = x * 2.0
            return y

        def looped(x):
            for _ in range(2):
                y = x * 2.0
            if x > 0:
                y = x
            return y

        print(jax.vmap(kept)(xs, xs), jax.vmap(looped)(xs))
        """
    found = results(body)
    assert [(f.code, f.line, f.fix) for f in found] == [("JAX305", 6, None), ("JAX305", 13, None)]
    assert "is not shown to be an array or a number" in found[0].message


def test_arms_assigning_several_names_select_each_in_the_arms_order_and_run_alike() -> None:
    """Arms of several assignments: a temporary only its own arm reads stays as written (computed
    whatever the test says), each other name gets one selection, ``x += e`` reads as ``x = x + e``,
    and a name one arm leaves alone keeps what it held; a later line reads what the arm has set."""
    body = """\
        def split(x):
            lo = x * 0.0
            hi = x * 1.0
            if x > 0:
                t = x * 3.0
                lo = t - 1.0
                hi += lo
            else:
                hi = -x
            return lo, hi

        LO, HI = jax.vmap(split)(xs)
        """
    found = results(body)
    assert [(f.code, f.line, f.fix is not None) for f in found] == [("JAX305", 8, True)]
    fixed = fix_source(HEADER + textwrap.dedent(body), Options()).text
    assert (
        "    t = x * 3.0\n"
        "    lo = jnp.where(x > 0, t - 1.0, lo)\n"
        "    hi = jnp.where(x > 0, hi + lo, -x)\n"
        "    return lo, hi\n"
    ) in fixed
    ran = run_in_process(fixed)
    assert ran["LO"].tolist() == [-0.0, 5.0] and ran["HI"].tolist() == [1.0, 7.0]


def test_arms_of_several_names_that_a_selection_cannot_reproduce_are_reported() -> None:
    """Each refused with its reason: the arms set two names in opposite orders (one arm's second
    line would read the other's selection), the test reads a name an arm sets (it is evaluated
    at every selection), an arm sets a name twice, an unpacking sets a name read after the `if`,
    and an arm leaves alone a name not shown to hold an array."""
    body = """\
        def swapped(x):
            a = x * 1.0
            b = x * 2.0
            if x > 0:
                a = b + 1.0
                b = a * 2.0
            else:
                b = a - 1.0
                a = b * 3.0
            return a, b

        def retested(x):
            a = x * 1.0
            if a > 0:
                a = a - 1.0
                b = a * 2.0
            else:
                a = a + 1.0
                b = a
            return a, b

        def twice(x):
            a = x * 1.0
            if x > 0:
                a = a + 1.0
                a = a * 2.0
            else:
                a = -a
                b = a
            return a

        def unpacked(x):
            if x > 0:
                a, b = jnp.sin(x), jnp.cos(x)
            else:
                a, b = x, x
            return a + b

        def kept(x, b):
            if x > 0:
                a = x + 1.0
                b = x * 2.0
            else:
                a = x
            return a, b

        print(jax.vmap(swapped)(xs), jax.vmap(retested)(xs), jax.vmap(twice)(xs))
        print(jax.vmap(unpacked)(xs), jax.vmap(kept)(xs, xs))
        """
    found = results(body)
    assert [(f.code, f.fix) for f in found] == [("JAX305", None)] * 5
    reasons = [f.message.split("not rewritten: ")[1] for f in found]
    assert reasons == [
        "the arms assign the same names in different orders",
        "the test reads a name the arms assign",
        "an arm assigns `a` twice",
        "`a, b = jnp.sin(x), jnp.cos(x)` unpacks `a`, which is read after the `if`",
        "what `b` holds before the `if` is not shown to be an array or a number",
    ]


def test_a_membership_test_on_a_mapped_value_is_reported_never_selected() -> None:
    """jax#2285: ``if j in table:`` hashes (a set) or compares (a list) the tracer; jnp.where would be
    handed what Python computed, so the two-return shape is not rewritten, only reported."""
    body = """\
        TABLE = {0, 2}

        def masked(j):
            if j in TABLE:
                return j * 0.0
            return j * 1.0

        print(jax.vmap(masked)(jnp.arange(3)))
        """
    found = results(body)
    assert [(f.code, f.line, f.fix) for f in found] == [("JAX305", 8, None)]
    assert "membership" in found[0].message


JITTED = textwrap.dedent(
    """\
    import jax
    import jax.numpy as jnp
    from flax import struct


    @struct.dataclass
    class State:
        pos: int
        data: jnp.ndarray


    @jax.jit
    def run(x):
        if x.sum() > 3:
            return x
        return -x


    @jax.jit
    def step(state):
        if state.pos + state.data.sum() > 3:
            return state.replace(pos=state.pos + 1)
        return state


    @jax.jit
    def pick(x, y):
        return x if x.sum() < y.sum() else y


    step(State(pos=1, data=jnp.ones(3)))
    """
)


def test_under_jit_a_test_on_the_parameters_own_values_is_claimed_and_a_field_left_to_jax306() -> None:
    """`if x.sum() > 3:` in a jitted function stays a tracer even for a static `x` (no JAX302), and
    a returned conditional expression is selected too; `state.pos` is a pytree's field (JAX306's):
    one finding for one `if`."""
    found = [(f.code, f.line) for f in check_source(JITTED, Options())]
    assert ("JAX305", 14) in found and ("JAX305", 28) in found
    assert [c for c, line in found if line == 21] == ["JAX306", "JAX306"]
    after = fix_source(JITTED).text
    assert "return jnp.where(x.sum() > 3, x, -x)" in after
    assert "return jnp.where(x.sum() < y.sum(), x, y)" in after
    assert "if state.pos + state.data.sum() > 3:" in after


def test_a_selection_differentiated_in_reverse_mode_is_unsafe_where_an_arm_may_be_infinite() -> None:
    """jnp.where differentiates both arms: `1.0 / x` in the arm not taken at `x = 0` makes the
    gradient NaN where the `if` gave a number (jax's double-where trap), so that selection is
    unsafe under `jax.grad`; arms that stay finite (`x * 2.0`, `jnp.sin(x)`) remain safe."""
    body = """\
        def inverse(x):
            if x > 0:
                return 1.0 / x
            return x * 2.0

        def smooth(x):
            if x > 0:
                return jnp.sin(x)
            return x * 2.0

        print(jax.vmap(jax.grad(inverse))(xs), jax.vmap(jax.grad(smooth))(xs))
        """
    found = results(body)
    assert [(f.code, f.fix.applicability.value) for f in found] == [("JAX305", "unsafe"), ("JAX305", "safe")]
    assert "differentiated in reverse mode" in found[0].notes[-1]
