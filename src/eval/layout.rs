//! Where each parameter of the evaluation lives in the flat weight vector.
//!
//! Every term is seen from one side's point of view ("ours"): ranks count from the far edge
//! (0 = the enemy's back rank) and files are those of the side's own view of the board, so the
//! evaluation is symmetric under a colour flip by construction. King-relative tables mirror the
//! board left to right when the king stands on the left half, so that their files run from the
//! king's own edge.

/// Board material by piece kind (14; the king's entry is unused).
pub const PIECE: usize = 0;
/// Hand material: the value of the n-th piece of a hand kind held (7 kinds × 18).
pub const HAND: usize = PIECE + 14;
/// Slots per hand kind.
pub const HAND_SLOTS: usize = 18;
/// Absolute piece-square table by kind, relative rank and folded file (14 × 9 × 5).
pub const PST: usize = HAND + 7 * HAND_SLOTS;
/// A piece's place relative to its own king: kind × (17 rank offsets × 17 file offsets).
pub const OWN_KING: usize = PST + 14 * 45;
/// A piece's place relative to the enemy king: kind × (17 × 17).
pub const ENEMY_KING: usize = OWN_KING + 14 * RELATIVE;
/// Cells of a king-relative table per kind.
pub const RELATIVE: usize = 17 * 17;
/// The king's own square by relative rank and folded file (9 × 5).
pub const KING_PST: usize = ENEMY_KING + 14 * RELATIVE;
/// Per reachable square of rook, dragon, bishop, horse and lance (5).
pub const MOBILITY: usize = KING_PST + 45;
/// Side to move: per enemy piece kind that it attacks and the enemy does not defend (14).
pub const THREAT_BY_US: usize = MOBILITY + 5;
/// Side to move: per own piece kind attacked by the enemy and not defended (14).
pub const THREAT_TO_US: usize = THREAT_BY_US + 14;
/// Side to move bonus (1).
pub const TEMPO: usize = THREAT_TO_US + 14;
/// Linear weights of the king-danger inputs of our own king (see `D_*`).
pub const DANGER_LINEAR: usize = TEMPO + 1;
/// Weights (× [`DANGER_UNIT_SCALE`]) that sum the king-danger inputs into attack units; the
/// penalty grows with the square of the units.
pub const DANGER_UNITS: usize = DANGER_LINEAR + DANGER_INPUTS;
/// Number of parameters.
pub const NUM_PARAMS: usize = DANGER_UNITS + DANGER_INPUTS;

/// Fixed-point scale of the attack-unit weights.
pub const DANGER_UNIT_SCALE: i32 = 16;
/// The danger penalty is `units² >> DANGER_SHIFT` (units in fixed point).
pub const DANGER_SHIFT: u32 = 14;

/// King-danger input: squares of the king's zone the enemy attacks.
pub const D_ATTACKED: usize = 0;
/// Zone squares the enemy attacks and no piece of ours (but the king) defends.
pub const D_WEAK: usize = 1;
/// Zone squares the enemy attacks twice.
pub const D_DOUBLE: usize = 2;
/// Squares one step beyond the zone, in front of the king, that the enemy attacks.
pub const D_PRESSURE: usize = 3;
/// Squares the king can step to (empty or enemy, not attacked).
pub const D_ESCAPES: usize = 4;
/// Our pieces next to the king.
pub const D_DEFENDERS: usize = 5;
/// Enemy pieces in hand, per hand kind (7).
pub const D_HAND: usize = 6;
/// Enemy pieces in hand per kind × empty squares next to the king that the enemy controls (7).
pub const D_HAND_SUPPORTED: usize = D_HAND + 7;
/// Enemy pieces in hand per kind × empty squares next to the king (7).
pub const D_HAND_OPEN: usize = D_HAND_SUPPORTED + 7;
/// Enemy pieces within two squares of the king, per kind (14).
pub const D_NEAR: usize = D_HAND_OPEN + 7;
/// Number of king-danger inputs.
pub const DANGER_INPUTS: usize = D_NEAR + 14;

/// The mobility kinds, in the order of [`MOBILITY`]'s slots.
pub(crate) const MOBILITY_KINDS: [crate::types::PieceKind; 5] = {
    use crate::types::PieceKind::*;
    [Rook, Dragon, Bishop, Horse, Lance]
};
