# Cut down from jax-ml/jax#10231 ("NonConcreteBooleanIndexError on call to
# jnp.unique"): a projection model computes the distinct ages present in the
# data and predicts one value per age. The number of distinct ages is
# data-dependent, so the unique step is done outside jit (on concrete data).
import jax
import jax.numpy as jnp


@jax.jit
def project_by_age(age_effect, ages_pred):
    return ages_pred, age_effect[ages_pred]


age_effect = jnp.linspace(0.0, 1.0, 30)
age_idx = jnp.array([24, 25, 26, 6, 14, 10, 24, 25, 6], dtype=jnp.int32)
ages_pred = jnp.unique(age_idx)  # concrete: computed eagerly
ages, effects = project_by_age(age_effect, ages_pred)
print(ages.tolist(), [round(v, 3) for v in effects.tolist()])
