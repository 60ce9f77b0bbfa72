//! Move ordering, in stages so that a node cut off early never generates or scores what it does
//! not need: the transposition-table move, then captures and promotions by MVV-LVA (each checked
//! with SEE as it comes up; losing ones are set aside), the killers and the counter move, the
//! quiet moves by history, and the losing captures last. In check, all evasions are scored at
//! once. Non-promotions of pawns, bishops and rooks where promotion is possible are skipped, as
//! in YaneuraOu: the promoting twin is always at least as good.

use super::history::{ContKey, History};
use super::see::see;
use crate::eval::{Value, capture_value, piece_value};
use crate::movegen::{Gen, MAX_MOVES, MoveList, generate};
use crate::position::Position;
use crate::types::{Move, MoveKind, PieceKind};

/// True if `m` is a non-promotion that search never needs (pawn, bishop or rook that could
/// promote on this move).
pub fn is_useless_non_promotion(pos: &Position, m: Move) -> bool {
    let MoveKind::Normal { from, promote: false, .. } = m.kind() else {
        return false;
    };
    if !m.touches_zone(pos.side_to_move()) {
        return false;
    }
    matches!(pos.piece_on(from).map(|p| p.kind()), Some(PieceKind::Pawn | PieceKind::Bishop | PieceKind::Rook))
}

/// True if `m` captures.
#[inline]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    !m.is_drop() && pos.piece_on(m.to()).is_some()
}

/// True if quiescence search tries `m` outside check: a capture, or a pawn's promotion.
///
/// Other pieces' non-capture promotions are left out, as YaneuraOu's quiescence leaves them out
/// (its `CAPTURES_PRO_PLUS` generator): a silver, lance, knight, bishop or rook that promotes
/// without capturing is a positional move, and every one in or entering the promotion zone is
/// one more branch at every quiescence ply. With an NNUE net trained on hisha's self-play labels
/// those branches grew `hisha bench 6` from 0.87 M to 20 M nodes (see `nnue/README.md`).
fn is_quiescence_move(pos: &Position, m: Move) -> bool {
    is_capture(pos, m) || (m.is_promotion() && pos.moved_piece(m).is_some_and(|p| p.kind() == PieceKind::Pawn))
}

/// MVV-LVA score of a capture or promotion.
fn mvv_lva(pos: &Position, m: Move) -> Value {
    let victim = pos.piece_on(m.to()).map_or(0, |p| capture_value(p.kind()));
    let attacker = pos.moved_piece(m).map_or(0, |p| piece_value(p.kind()));
    let promo = if m.is_promotion() { 300 } else { 0 };
    victim * 8 - attacker / 16 + promo
}

/// What the picker knows about the node besides the position.
pub struct Context<'a> {
    /// The history tables.
    pub history: &'a History,
    /// Killer moves of this ply.
    pub killers: [Option<Move>; 2],
    /// Continuation keys of the moves one and two plies earlier.
    pub previous: [Option<ContKey>; 2],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TtMove,
    GenerateCaptures,
    GoodCaptures,
    Refutations,
    GenerateQuiets,
    Quiets,
    BadCaptures,
    GenerateEvasions,
    Evasions,
    Done,
}

/// Hands out the moves of a node in a good order. Every move handed out is legal.
pub struct MovePicker {
    stage: Stage,
    tt_move: Option<Move>,
    quiescence: bool,
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    cur: usize,
    end_bad: usize,
    refutations: [Option<Move>; 3],
    refutation: usize,
    last_bad: bool,
    depth: i32,
}

/// Quiet scores are history × this, minus the generation index (distinct, ties in order).
const TIE_SLOTS: i32 = 1024;

/// Ordering score of a move that is not to be handed out again (already tried as a refutation).
const SKIP: i32 = i32::MIN;

impl MovePicker {
    fn with(pos: &Position, tt_move: Option<Move>, quiescence: bool, depth: i32) -> MovePicker {
        let in_check = pos.in_check();
        let first = if in_check { Stage::GenerateEvasions } else { Stage::GenerateCaptures };
        let tt_move = tt_move.filter(|&m| {
            pos.is_legal(m)
                && !is_useless_non_promotion(pos, m)
                && (!quiescence || in_check || is_quiescence_move(pos, m))
        });
        MovePicker {
            stage: if tt_move.is_some() { Stage::TtMove } else { first },
            tt_move,
            quiescence,
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            cur: 0,
            end_bad: 0,
            refutations: [None; 3],
            refutation: 0,
            last_bad: false,
            depth,
        }
    }

    /// A picker for all moves of a main-search node with `depth` plies left.
    pub fn new(pos: &Position, tt_move: Option<Move>, depth: i32) -> MovePicker {
        MovePicker::with(pos, tt_move, false, depth)
    }

    /// A picker for quiescence search: winning or even captures and pawn promotions
    /// ([`is_quiescence_move`]; all evasions when in check).
    pub fn new_quiescence(pos: &Position, tt_move: Option<Move>) -> MovePicker {
        MovePicker::with(pos, tt_move, true, 0)
    }

    /// True if the last move handed out was a capture or promotion that loses material by SEE.
    pub fn last_was_bad_capture(&self) -> bool {
        self.last_bad
    }

    /// Index of the best-scored move in `cur..end`, swapped to `cur`.
    fn select_best(&mut self, end: usize) -> Option<(Move, i32)> {
        if self.cur >= end {
            return None;
        }
        let mut best = self.cur;
        for i in self.cur + 1..end {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.scores.swap(self.cur, best);
        self.moves.swap(self.cur, best);
        let picked = (self.moves[self.cur], self.scores[self.cur]);
        self.cur += 1;
        Some(picked)
    }

    /// Sorts the quiet moves from `start` on by score, best first, as far as they score at least
    /// `limit`; the others follow in no particular order (they are rarely reached at a cut node).
    /// A Shell sort on the two parallel arrays: a node may have hundreds of drops, too many for
    /// insertion sort.
    fn sort_quiets(&mut self, start: usize, limit: i32) {
        let mut end = self.moves.len();
        let mut i = start;
        while i < end {
            if self.scores[i] >= limit {
                i += 1;
            } else {
                end -= 1;
                self.moves.swap(i, end);
                self.scores.swap(i, end);
            }
        }
        let n = end - start;
        for gap in [109, 41, 19, 5, 1] {
            for i in gap..n {
                let (m, s) = (self.moves[start + i], self.scores[start + i]);
                let mut j = i;
                while j >= gap && self.scores[start + j - gap] < s {
                    self.moves[start + j] = self.moves[start + j - gap];
                    self.scores[start + j] = self.scores[start + j - gap];
                    j -= gap;
                }
                self.moves[start + j] = m;
                self.scores[start + j] = s;
            }
        }
    }

    fn keep(tt_move: Option<Move>, pos: &Position, m: Move) -> bool {
        Some(m) != tt_move && !is_useless_non_promotion(pos, m)
    }

    /// The next move, or `None` when all were handed out.
    pub fn next(&mut self, pos: &Position, ctx: &Context) -> Option<Move> {
        self.last_bad = false;
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = if pos.in_check() { Stage::GenerateEvasions } else { Stage::GenerateCaptures };
                    return self.tt_move;
                }
                Stage::GenerateCaptures => {
                    generate(pos, Gen::Captures, &mut self.moves);
                    let (tt, quiescence) = (self.tt_move, self.quiescence);
                    self.moves.retain(|m| Self::keep(tt, pos, m) && (!quiescence || is_quiescence_move(pos, m)));
                    for (i, &m) in self.moves.iter().enumerate() {
                        self.scores[i] = mvv_lva(pos, m);
                    }
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    let end = self.moves.len();
                    match self.select_best(end) {
                        Some((m, _)) if see(pos, m) >= 0 => return Some(m),
                        Some((m, _)) => {
                            // Losing: kept for the last stage (not at all in quiescence).
                            self.moves[self.end_bad] = m;
                            self.end_bad += 1;
                        }
                        None if self.quiescence => self.stage = Stage::Done,
                        None => {
                            let counter = ctx.history.counter(pos.side_to_move(), ctx.previous[0]);
                            self.refutations = [ctx.killers[0], ctx.killers[1], counter];
                            self.stage = Stage::Refutations;
                        }
                    }
                }
                Stage::Refutations => {
                    if self.refutation >= self.refutations.len() {
                        self.stage = Stage::GenerateQuiets;
                        continue;
                    }
                    let r = self.refutations[self.refutation];
                    self.refutation += 1;
                    let Some(m) = r else { continue };
                    let earlier = self.refutations[..self.refutation - 1].contains(&Some(m));
                    let quiet = !is_capture(pos, m) && !m.is_promotion();
                    if !earlier && quiet && Self::keep(self.tt_move, pos, m) && pos.is_legal(m) {
                        return Some(m);
                    }
                    self.refutations[self.refutation - 1] = None;
                }
                Stage::GenerateQuiets => {
                    let start = self.moves.len();
                    self.cur = start;
                    generate(pos, Gen::Quiets, &mut self.moves);
                    let us = pos.side_to_move();
                    for i in start..self.moves.len() {
                        let m = self.moves[i];
                        // Ties keep generation order (board moves before drops), which is worth
                        // much more than an arbitrary order: the low bits hold the position.
                        self.scores[i] = if !Self::keep(self.tt_move, pos, m) || self.refutations.contains(&Some(m)) {
                            SKIP
                        } else {
                            let h = ContKey::of(pos, m).map_or(0, |k| ctx.history.score(us, m, k, &ctx.previous));
                            h * TIE_SLOTS - (i - start) as i32
                        };
                    }
                    self.sort_quiets(start, -3_000 * TIE_SLOTS * self.depth.max(1));
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    while self.cur < self.moves.len() && self.scores[self.cur] == SKIP {
                        self.cur += 1;
                    }
                    if self.cur < self.moves.len() {
                        self.cur += 1;
                        return Some(self.moves[self.cur - 1]);
                    }
                    self.stage = Stage::BadCaptures;
                    self.cur = 0;
                }
                Stage::BadCaptures => {
                    if self.cur < self.end_bad {
                        self.cur += 1;
                        self.last_bad = true;
                        return Some(self.moves[self.cur - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenerateEvasions => {
                    generate(pos, Gen::Legal, &mut self.moves);
                    let tt = self.tt_move;
                    self.moves.retain(|m| Self::keep(tt, pos, m));
                    let us = pos.side_to_move();
                    for (i, &m) in self.moves.iter().enumerate() {
                        self.scores[i] = if is_capture(pos, m) || m.is_promotion() {
                            (1 << 24) + mvv_lva(pos, m)
                        } else {
                            ContKey::of(pos, m).map_or(0, |k| ctx.history.score(us, m, k, &ctx.previous))
                        };
                    }
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => {
                    let end = self.moves.len();
                    match self.select_best(end) {
                        Some((m, _)) => return Some(m),
                        None => self.stage = Stage::Done,
                    }
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every legal move (but useless non-promotions) comes out exactly once, whatever the killers.
    fn picks_every_move_once(sfen: &str) {
        let pos = Position::from_sfen(sfen).expect("valid");
        let history = History::new();
        let legal: Vec<Move> =
            pos.legal_moves().iter().copied().filter(|&m| !is_useless_non_promotion(&pos, m)).collect();
        let tt = legal.last().copied();
        let ctx = Context { history: &history, killers: [legal.first().copied(), tt], previous: [None, None] };
        let mut picker = MovePicker::new(&pos, tt, 5);
        let mut seen = Vec::new();
        while let Some(m) = picker.next(&pos, &ctx) {
            seen.push(m);
        }
        let mut a = seen.clone();
        a.sort_by_key(|m| m.bits());
        a.dedup();
        assert_eq!(a.len(), seen.len(), "a move came out twice in {sfen}");
        let mut b = legal.clone();
        b.sort_by_key(|m| m.bits());
        assert_eq!(a, b, "{sfen}");
        assert_eq!(seen.first().copied(), tt, "the TT move comes first");
    }

    #[test]
    fn every_legal_move_exactly_once() {
        picks_every_move_once("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        picks_every_move_once("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1");
        picks_every_move_once("ln1g5/1r2S1k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b w BGSLPnp 62");
        // In check (evasions).
        picks_every_move_once("4k4/9/4P4/9/9/9/9/9/4K4 w G2r2b3g4s4n4l17p 1");
    }

    #[test]
    fn a_table_move_of_any_bits_comes_out_only_if_legal() {
        // A table entry may hold any 16 bits (another position's move, a key collision): the
        // picker hands out the first move only if it is legal here.
        let pos = Position::from_sfen("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1")
            .expect("valid");
        let history = History::new();
        let ctx = Context { history: &history, killers: [None, None], previous: [None, None] };
        for m in (0..=u16::MAX).filter_map(Move::from_bits) {
            let first = MovePicker::new(&pos, Some(m), 5).next(&pos, &ctx).expect("moves");
            assert!(pos.is_legal(first), "{m:?} gave {first:?}");
            let first = MovePicker::new_quiescence(&pos, Some(m)).next(&pos, &ctx);
            assert!(first.is_none_or(|f| pos.is_legal(f)), "{m:?} gave {first:?}");
        }
    }

    #[test]
    fn good_captures_come_before_quiets_and_losing_captures_last() {
        // Black's rook can take an undefended silver (good) or a pawn defended by a gold (bad).
        let pos = Position::from_sfen("4k4/9/9/3gp4/9/9/9/2s1R4/4K4 b - 1").expect("valid");
        let history = History::new();
        let ctx = Context { history: &history, killers: [None, None], previous: [None, None] };
        let mut picker = MovePicker::new(&pos, None, 5);
        let first = picker.next(&pos, &ctx).expect("moves");
        assert_eq!(first.to_string(), "5h7h");
        let mut last = None;
        while let Some(m) = picker.next(&pos, &ctx) {
            last = Some((m, picker.last_was_bad_capture()));
        }
        let (m, bad) = last.expect("more moves");
        assert!(bad && is_capture(&pos, m), "{m} last");
    }

    #[test]
    fn quiet_moves_come_out_by_history() {
        // Reward a few quiet moves of the start position by different amounts: they come out
        // best first, and every move still comes out once.
        let pos = Position::startpos();
        let mut history = History::new();
        let us = pos.side_to_move();
        let rewarded = ["1g1f", "7g7f", "2g2f", "5i4h"];
        for (i, text) in rewarded.iter().enumerate() {
            let m = pos.parse_usi_move(text).expect("legal");
            let key = ContKey::of(&pos, m).expect("a piece moves");
            history.update(us, m, key, &[None, None], 1_000 * (i as i32 + 1));
        }
        let ctx = Context { history: &history, killers: [None, None], previous: [None, None] };
        let mut picker = MovePicker::new(&pos, None, 3);
        let mut order = Vec::new();
        while let Some(m) = picker.next(&pos, &ctx) {
            order.push(m.to_string());
        }
        assert_eq!(order[..4], ["5i4h", "2g2f", "7g7f", "1g1f"]);
        assert_eq!(order.len(), pos.legal_moves().len());
    }

    /// Every move `picker` hands out in `pos`, in USI.
    fn picked(pos: &Position, mut picker: MovePicker) -> Vec<String> {
        let history = History::new();
        let ctx = Context { history: &history, killers: [None, None], previous: [None, None] };
        let mut all = Vec::new();
        while let Some(m) = picker.next(pos, &ctx) {
            all.push(m.to_string());
        }
        all
    }

    #[test]
    fn quiescence_hands_out_only_good_captures() {
        let pos = Position::from_sfen("4k4/9/9/3gp4/9/9/9/2s1R4/4K4 b - 1").expect("valid");
        assert_eq!(picked(&pos, MovePicker::new_quiescence(&pos, None)), ["5h7h"]);
    }

    #[test]
    fn quiescence_in_check_hands_out_every_evasion_captures_or_not() {
        // The rook on 9i checks the king on 5i; the evasions are king moves, none a capture.
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/r3K4 b - 1").expect("valid");
        let mut evasions = picked(&pos, MovePicker::new_quiescence(&pos, None));
        evasions.sort();
        let mut legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        legal.sort();
        assert!(!legal.is_empty());
        assert_eq!(evasions, legal);
    }

    #[test]
    fn quiescence_promotes_pawns_but_not_other_pieces_without_a_capture() {
        // Black's pawn on 3d and silver on 7d can each move into the zone and promote; only the
        // pawn's promotion is a quiescence move (the silver's is positional).
        let pos = Position::from_sfen("4k4/9/9/2S3P2/9/9/9/9/4K4 b - 1").expect("valid");
        assert_eq!(picked(&pos, MovePicker::new_quiescence(&pos, None)), ["3d3c+"]);
        // The main search's picker still hands out the silver's promotions.
        let mut promotions = picked(&pos, MovePicker::new(&pos, None, 1));
        promotions.retain(|m| m.ends_with('+'));
        promotions.sort();
        assert_eq!(promotions, ["3d3c+", "7d6c+", "7d7c+", "7d8c+"]);
    }
}
