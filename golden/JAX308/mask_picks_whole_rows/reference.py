# Adapted from pgx/shogi.py (_legal_promotion).
from functools import partial
import jax
import jax.numpy as jnp
from flax import struct

ZERO = jnp.int8(0)
TWO = jnp.int8(2)
PAWN = jnp.int8(0)
LANCE = jnp.int8(1)
KNIGHT = jnp.int8(2)
GOLD = jnp.int8(6)


@struct.dataclass
class State:
    piece_board: jnp.ndarray


def _legal_promotion(state: State, legal_moves: jnp.ndarray) -> jnp.ndarray:
    """Generate legal promotion (81, 81)
    0 = cannot promote
    1 = can promote (from or to opp area)
    2 = have to promote (get stuck)
    """
    promotion = legal_moves.astype(jnp.int8)
    # mask where piece cannot promote
    in_opp_area = jnp.arange(81) % 9 < 3
    tgt_in_opp_area = jnp.tile(in_opp_area, reps=(81, 1))
    src_in_opp_area = tgt_in_opp_area.transpose()
    mask = src_in_opp_area | tgt_in_opp_area
    promotion = jnp.where(mask, promotion, ZERO)
    # mask where piece have to promote
    is_line1 = jnp.tile(jnp.arange(81) % 9 == 0, reps=(81, 1))
    is_line2 = jnp.tile(jnp.arange(81) % 9 == 1, reps=(81, 1))
    where_pawn_or_lance = (state.piece_board == PAWN) | (state.piece_board == LANCE)
    where_knight = state.piece_board == KNIGHT
    is_stuck = jnp.tile(where_pawn_or_lance, (81, 1)).transpose() & is_line1
    is_stuck |= jnp.tile(where_knight, (81, 1)).transpose() & (is_line1 | is_line2)
    promotion = jnp.where((promotion != 0) & is_stuck, TWO, promotion)
    promotion = jnp.where(
        (state.piece_board < GOLD).reshape(81, 1), promotion, ZERO
    )
    return promotion


boards = jnp.stack([jnp.arange(81, dtype=jnp.int8) % 14 - 1, jnp.arange(81, dtype=jnp.int8) % 7])
legal = jnp.ones((2, 81, 81), dtype=jnp.bool_)
state = State(piece_board=boards[0])
print("eager", int(_legal_promotion(state, legal[0]).sum()))
legal_promotion = jax.jit(jax.vmap(partial(_legal_promotion)))
out = legal_promotion(State(piece_board=boards), legal)
print("jit+vmap", out.shape, [int(o.sum()) for o in out])
