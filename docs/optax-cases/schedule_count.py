"""What optax hands a learning-rate schedule, eagerly and under jit, and what NumPy makes of it.

Run: cd docs/optax-cases && JAX_PLATFORMS=cpu python schedule_count.py
Every public optax function whose first parameter is `learning_rate` is built with a schedule
that records the type of its argument and computes `np.cos` of it; `update` runs once eagerly and
once under `jax.jit`.
"""
import inspect
from collections import Counter

import jax
import jax.numpy as jnp
import numpy as np
import optax

params = {"w": jnp.ones(3)}
grads = {"w": jnp.full(3, 0.5)}
rows: Counter = Counter()
for name in sorted(dir(optax)):
    maker = getattr(optax, name)
    if not inspect.isfunction(maker):
        continue
    try:
        first = next(iter(inspect.signature(maker).parameters))
    except (StopIteration, ValueError):
        continue
    if first != "learning_rate":
        continue
    seen = []

    def schedule(count):
        seen.append(type(count).__name__)
        return 0.1 * (1 + np.cos(np.pi * count / 100))

    outcome = []
    for label, update in (("eager", None), ("jit", True)):
        seen.clear()
        try:
            opt = maker(schedule)
            state = opt.init(params)
            step = opt.update if update is None else jax.jit(opt.update)
            step(grads, state, params)
            outcome.append(f"{label}: OK, count is {'/'.join(sorted(set(seen))) or 'never read'}")
        except Exception as error:  # noqa: BLE001
            outcome.append(f"{label}: {type(error).__name__}")
    rows[" | ".join(outcome)] += 1
    print(f"{name}: {' | '.join(outcome)}")
print()
for outcome, count in rows.most_common():
    print(f"{count:3d}  {outcome}")
