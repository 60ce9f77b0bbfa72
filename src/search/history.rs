//! What the search learns about quiet moves while it runs: a butterfly history (side, origin or
//! dropped kind, destination), a continuation history (how good a move is right after a given
//! move one, two or four plies earlier), a capture history (how good a capture of a given kind by a
//! given move is) and counter moves (the quiet reply that refuted a move).
//!
//! Moves are identified for the continuation tables by a [`ContKey`]: the kind of the piece as it
//! stands after the move (promoted if it promotes) and its destination seen from the mover's side,
//! so that the same idea played from different squares, or by the other colour on the rotated
//! board, shares what was learnt. The move one ply back is always the opponent's and the moves two
//! and four plies back our own, so each has its own table and colours need not be told apart.

use crate::position::Position;
use crate::types::{Color, Move, Piece, PieceKind, Square};

/// Entries saturate at ± this.
const LIMIT: i32 = 16_384;
/// Butterfly entries of one side: a move's 7-bit origin (81 squares, then the 7 hand kinds for
/// drops) and 7-bit destination fields as they stand in its bits, so that the index is a mask;
/// the entries of destinations past 81 and of origins past 88 are never touched.
const BUTTERFLY: usize = 1 << 14;
/// Number of distinct [`ContKey`]s.
pub(super) const CONT_KEYS: usize = 14 * 81;
/// The plies back whose moves the continuation tables follow: 1, 2 and 4 (Stockfish's first
/// three of 1, 2, 3, 4 and 6).
pub const CONT_PLIES: [usize; 3] = [1, 2, 4];
/// The keys of the moves [`CONT_PLIES`] plies before a node (`None`: no such move, or a null
/// move).
pub type PreviousKeys = [Option<ContKey>; CONT_PLIES.len()];
/// No previous moves.
pub const NO_PREVIOUS: PreviousKeys = [None; CONT_PLIES.len()];
/// Captured kinds, by [`PieceKind::index`].
const CAPTURED_KINDS: usize = 14;

/// The [`ContKey`] of a move less its destination, by promotion (0 or 1) and the moved piece's
/// code: the kind after the move × 81, plus 80 for White (whose destination is rotated). Codes
/// that are no piece give 0.
const CONT_BASE: [[u16; 32]; 2] = {
    let mut table = [[0; 32]; 2];
    let mut promote = 0;
    while promote < 2 {
        let mut code = 0;
        while code < 32 {
            if code & 15 != 0 && code & 15 <= 14 {
                let moved = PieceKind::of_low_bits(code);
                let kind = match (promote == 1, moved.promoted()) {
                    (true, Some(k)) => k,
                    _ => moved,
                };
                table[promote][code] = (kind.index() * 81 + if code & 16 == 0 { 0 } else { 80 }) as u16;
            }
            code += 1;
        }
        promote += 1;
    }
    table
};

/// A move as the continuation tables see it: moved kind (after promotion) and destination, from
/// the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContKey(u16);

impl ContKey {
    /// The key of `m`, about to be played in `pos`.
    #[inline]
    pub fn of(pos: &Position, m: Move) -> Option<ContKey> {
        Some(PieceKeys::of(pos.moved_piece(m)?, m.is_promotion()).to(m.to()))
    }

    fn index(self) -> usize {
        self.0 as usize
    }

    /// The index of the pair (`self`, then `next`) in a table of [`CONT_KEYS`]² entries.
    #[inline(always)]
    pub(super) fn pair_index(self, next: ContKey) -> usize {
        self.index() * CONT_KEYS + next.index()
    }
}

/// The [`ContKey`]s of one piece's moves (or one kind's drops) by destination: what does not
/// depend on the destination, looked up once for all of them.
#[derive(Clone, Copy, Debug)]
pub struct PieceKeys {
    /// The key less the destination ([`CONT_BASE`]).
    base: u16,
    /// White's destinations are rotated: 80 − to, the 80 in its base.
    white: bool,
}

impl PieceKeys {
    /// The keys of the moves of `piece` (a drop's: the dropped piece), promoting or not.
    #[inline(always)]
    pub fn of(piece: Piece, promote: bool) -> PieceKeys {
        let code = piece.code() as usize;
        PieceKeys { base: CONT_BASE[promote as usize][code & 31], white: code & 16 != 0 }
    }

    /// The key of the move to `to`.
    #[inline(always)]
    pub fn to(self, to: Square) -> ContKey {
        let to = to.index() as u16;
        ContKey(if self.white { self.base - to } else { self.base + to })
    }
}

/// A capture as the capture history sees it: the move's [`ContKey`] and the captured kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaptureKey(u16);

impl CaptureKey {
    /// The key of `m` about to be played in `pos`, if it captures.
    #[inline]
    pub fn of(pos: &Position, m: Move) -> Option<CaptureKey> {
        if m.is_drop() {
            return None;
        }
        let captured = pos.piece_on(m.to())?.kind();
        let key = ContKey::of(pos, m)?;
        Some(CaptureKey((key.index() * CAPTURED_KINDS + captured.index()) as u16))
    }
}

/// The history tables.
pub struct History {
    butterfly: Box<[[i16; BUTTERFLY]; 2]>,
    /// After the moves [`CONT_PLIES`] plies back: the opponent's last move (index 0) and our own
    /// two (1) and four (2) plies back.
    continuation: [Vec<i16>; CONT_PLIES.len()],
    capture: Vec<i16>,
    counter: Vec<Option<Move>>,
}

/// Moves a table entry toward `bonus`'s sign by `bonus` (clamped to ± `limit`), slowing down
/// near `limit`, where entries saturate: the update of every history and correction table.
#[inline]
pub(super) fn gravity(entry: &mut i16, bonus: i32, limit: i32) {
    let b = bonus.clamp(-limit, limit);
    let v = *entry as i32;
    *entry = (v + b - v * b.abs() / limit) as i16;
}

impl History {
    /// Empty tables.
    pub fn new() -> History {
        History {
            butterfly: Box::new([[0; BUTTERFLY]; 2]),
            continuation: std::array::from_fn(|_| vec![0; CONT_KEYS * CONT_KEYS]),
            capture: vec![0; CONT_KEYS * CAPTURED_KINDS],
            counter: vec![None; 2 * CONT_KEYS],
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self.butterfly = [[0; BUTTERFLY]; 2];
        self.continuation.iter_mut().for_each(|t| t.fill(0));
        self.capture.fill(0);
        self.counter.fill(None);
    }

    #[inline]
    fn butterfly_index(m: Move) -> usize {
        // Origin and destination, without the promotion bit (a move and its promoting twin share
        // an entry).
        m.bits() as usize & (BUTTERFLY - 1)
    }

    /// The ordering score of quiet move `m` (key `key`) by side `us`, after the moves with keys
    /// `previous` ([`CONT_PLIES`] plies earlier).
    #[inline]
    pub fn score(&self, us: Color, m: Move, key: ContKey, previous: &PreviousKeys) -> i32 {
        let mut s = self.butterfly[us.index()][Self::butterfly_index(m)] as i32;
        for (table, p) in self.continuation.iter().zip(previous) {
            if let Some(p) = p {
                s += table[p.pair_index(key)] as i32;
            }
        }
        s
    }

    /// The tables the quiet moves of `us` after the moves with keys `previous` are scored from,
    /// looked up once for a node's whole list: [`QuietScorer::score`] equals [`History::score`].
    pub fn quiet_scorer(&self, us: Color, previous: &PreviousKeys) -> QuietScorer<'_> {
        QuietScorer {
            butterfly: &self.butterfly[us.index()],
            rows: std::array::from_fn(|i| cont_row(&self.continuation[i], previous[i])),
        }
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move in every table.
    pub fn update(&mut self, us: Color, m: Move, key: ContKey, previous: &PreviousKeys, bonus: i32) {
        gravity(&mut self.butterfly[us.index()][Self::butterfly_index(m)], bonus, LIMIT);
        for (table, p) in self.continuation.iter_mut().zip(previous) {
            if let Some(p) = p {
                gravity(&mut table[p.pair_index(key)], bonus, LIMIT);
            }
        }
    }

    /// How well the capture with key `key` did before.
    #[inline]
    pub fn capture_score(&self, key: CaptureKey) -> i32 {
        self.capture[key.0 as usize] as i32
    }

    /// Rewards (`bonus > 0`) or punishes a capture.
    pub fn update_capture(&mut self, key: CaptureKey, bonus: i32) {
        gravity(&mut self.capture[key.0 as usize], bonus, LIMIT);
    }

    #[inline(always)]
    fn counter_index(us: Color, previous: ContKey) -> usize {
        us.index() * CONT_KEYS + previous.index()
    }

    /// The quiet move of `us` that last refuted the move with key `previous`.
    #[inline]
    pub fn counter(&self, us: Color, previous: Option<ContKey>) -> Option<Move> {
        previous.and_then(|p| self.counter[Self::counter_index(us, p)])
    }

    /// Remembers `m` as `us`'s refutation of the move with key `previous`.
    pub fn set_counter(&mut self, us: Color, previous: Option<ContKey>, m: Move) {
        if let Some(p) = previous {
            self.counter[Self::counter_index(us, p)] = Some(m);
        }
    }
}

/// A continuation row that scores nothing: the row after no move.
static NO_ROW: [i16; CONT_KEYS] = [0; CONT_KEYS];

/// The row of continuation table `table` after the move with key `previous`.
fn cont_row(table: &[i16], previous: Option<ContKey>) -> &[i16; CONT_KEYS] {
    previous
        .and_then(|p| table.get(p.index() * CONT_KEYS..(p.index() + 1) * CONT_KEYS))
        .and_then(|row| row.try_into().ok())
        .unwrap_or(&NO_ROW)
}

/// Scores a node's quiet moves from its tables looked up once ([`History::quiet_scorer`]).
pub struct QuietScorer<'a> {
    butterfly: &'a [i16; BUTTERFLY],
    /// The continuation rows after the moves [`CONT_PLIES`] plies earlier.
    rows: [&'a [i16; CONT_KEYS]; CONT_PLIES.len()],
}

impl QuietScorer<'_> {
    /// The ordering score of quiet move `m` with key `key`.
    #[inline(always)]
    pub fn score(&self, m: Move, key: ContKey) -> i32 {
        let k = key.index();
        // Every row, however many `CONT_PLIES` names (the fixed-length loop unrolls).
        self.butterfly[History::butterfly_index(m)] as i32
            + self.rows.iter().map(|row| row.get(k).map_or(0, |&v| v as i32)).sum::<i32>()
    }
}

impl Default for History {
    fn default() -> History {
        History::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moves_key_is_its_kind_after_the_move_and_its_destination_seen_by_the_mover() {
        use rand::{Rng, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(5);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..40 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in moves.iter() {
                    let piece = pos.moved_piece(m).expect("a piece moves");
                    let kind = if m.is_promotion() { piece.kind().promoted().expect("promotes") } else { piece.kind() };
                    let to = if piece.color() == Color::Black { m.to() } else { m.to().rotate() };
                    let key = ContKey::of(&pos, m).expect("a key");
                    assert_eq!(key.index(), kind.index() * 81 + to.index(), "{m} in {}", pos.to_sfen());
                    seen.insert(key.index());
                }
                pos.do_move(moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(seen.len() > 600, "keys of many kinds and squares: {}", seen.len());
    }

    #[test]
    fn rewards_raise_and_punishments_lower_the_score_within_the_limit() {
        let mut h = History::new();
        let pos = Position::startpos();
        let m = pos.parse_usi_move("7g7f").expect("legal");
        let key = ContKey::of(&pos, m).expect("a piece moves");
        let prev = NO_PREVIOUS;
        for _ in 0..1_000 {
            h.update(Color::Black, m, key, &prev, 4_000);
        }
        let high = h.score(Color::Black, m, key, &prev);
        assert!(high > 0 && high <= LIMIT, "{high}");
        assert_eq!(h.score(Color::White, m, key, &prev), 0, "the other side's table is separate");
        h.update(Color::Black, m, key, &prev, -4_000);
        assert!(h.score(Color::Black, m, key, &prev) < high);
    }

    #[test]
    fn continuation_scores_depend_on_the_previous_move() {
        let mut h = History::new();
        let pos = Position::startpos();
        let m = pos.parse_usi_move("2g2f").expect("legal");
        let key = ContKey::of(&pos, m).expect("a piece moves");
        let a = ContKey::of(&pos, pos.parse_usi_move("7g7f").expect("legal"));
        let b = ContKey::of(&pos, pos.parse_usi_move("5g5f").expect("legal"));
        h.update(Color::Black, m, key, &[a, None, None], 2_000);
        assert!(h.score(Color::Black, m, key, &[a, None, None]) > h.score(Color::Black, m, key, &[b, None, None]));
        // The table of the move four plies back is its own.
        h.update(Color::Black, m, key, &[None, None, b], 3_000);
        assert!(h.score(Color::Black, m, key, &[None, None, b]) > h.score(Color::Black, m, key, &[None, b, None]));
        h.set_counter(Color::Black, a, m);
        assert_eq!(h.counter(Color::Black, a), Some(m));
        assert_eq!(h.counter(Color::White, a), None, "each side has its own counter moves");
        assert_eq!(h.counter(Color::Black, b), None);
    }

    /// The scorer of a node's list gives what `score` gives, for every move of a position after
    /// updates under several previous moves, with any previous move missing.
    #[test]
    fn the_quiet_scorer_scores_as_score_does() {
        let mut h = History::new();
        let pos =
            Position::from_sfen("lnsgkgsnl/1r5b1/pppppppp1/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w p 2").expect("valid");
        let moves = pos.legal_moves();
        let keys: Vec<_> = moves.iter().filter_map(|&m| ContKey::of(&pos, m).map(|k| (m, k))).collect();
        let (a, b, c) = (Some(keys[0].1), Some(keys[1].1), Some(keys[2].1));
        for (i, &(m, k)) in keys.iter().enumerate() {
            let bonus = (i as i32 * 977) % 6_000 - 3_000;
            h.update(Color::White, m, k, &[a, b, c], bonus);
            h.update(Color::White, m, k, &[b, None, a], -bonus / 2);
        }
        for previous in [[a, b, c], [b, None, a], [None, a, None], [None, None, c], NO_PREVIOUS] {
            let scorer = h.quiet_scorer(Color::White, &previous);
            for &(m, k) in &keys {
                assert_eq!(scorer.score(m, k), h.score(Color::White, m, k, &previous), "{m:?} {previous:?}");
            }
        }
        assert!(keys.iter().any(|&(m, k)| h.score(Color::White, m, k, &[a, b, c]) != 0));
    }

    #[test]
    fn capture_scores_are_per_move_and_captured_kind() {
        let mut h = History::new();
        // Black's rook on 5i and bishop on 8h may each take the pawn on 5e.
        let pos = Position::from_sfen("4k4/9/9/9/4p4/9/9/1B7/4R1K2 b - 1").expect("valid");
        let rook_takes = pos.parse_usi_move("5i5e").map(|m| CaptureKey::of(&pos, m)).expect("legal");
        let bishop_takes = pos.parse_usi_move("8h5e").map(|m| CaptureKey::of(&pos, m)).expect("legal");
        let quiet = pos.parse_usi_move("5i5h").map(|m| CaptureKey::of(&pos, m)).expect("legal");
        assert!(rook_takes.is_some() && bishop_takes.is_some());
        assert_eq!(quiet, None, "a move that captures nothing has no capture key");
        let (r, b) = (rook_takes.expect("capture"), bishop_takes.expect("capture"));
        h.update_capture(r, 2_000);
        assert!(h.capture_score(r) > 0);
        assert_eq!(h.capture_score(b), 0, "another capture is untouched");
        h.update_capture(b, -2_000);
        assert!(h.capture_score(b) < 0);
    }
}
