# The gymnax step (RobertTLange/gymnax#74) as fixed: the jitted step returns the array, and the
# Python loop outside the jit asks for its value with .item(), where it is concrete.
import jax
import jax.numpy as jnp


def step_agent(pos, action):
    cond_up = action == 2
    pos = jnp.maximum(0, pos - cond_up)
    win_cond = pos == 0
    return pos, win_cond * 1.0, win_cond


@jax.jit
def step(pos, action):
    pos, reward, win = step_agent(pos, action)
    return jnp.where(win, 9, pos), reward, win


pos, total = jnp.int32(3), 0.0
for t in range(8):
    pos, reward, win = step(pos, 2)
    total += reward.item()
    if win.item():
        print("crossed at", t)
print("total:", total)
