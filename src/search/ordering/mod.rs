//! Move ordering, in stages so that a node cut off early never generates or scores what it does
//! not need: the transposition-table move, then captures and promotions by MVV-LVA and capture history
//! (each checked with SEE as it comes up; losing ones are set aside), the killers and the counter move, the
//! quiet moves by history, and the losing captures last. In check, all evasions are scored at
//! once. Non-promotions of pawns, bishops and rooks where promotion is possible are skipped, as
//! in YaneuraOu: the promoting twin is always at least as good.

mod moves;
mod quiets;
mod sort;

pub use moves::{is_capture, is_useless_non_promotion};
use moves::{is_quiescence_move, mvv_lva};
use quiets::QuietSink;

use super::history::{CaptureKey, ContKey, History, PreviousKeys};
use super::see::see_ge;
use crate::movegen::{FixedList, Gen, MoveList, generate, generate_to};
use crate::position::{CheckSquares, Position};
use crate::types::Move;

/// What the picker knows about the node besides the position.
pub struct Context<'a> {
    /// The history tables.
    pub history: &'a History,
    /// Killer moves of this ply.
    pub killers: [Option<Move>; 2],
    /// Continuation keys of the moves [`CONT_PLIES`](super::history::CONT_PLIES) plies earlier.
    pub previous: PreviousKeys,
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
    /// The ordering score of each move of `moves` generated so far (same index).
    scores: FixedList<i32>,
    cur: usize,
    /// The quiet moves from `cur` up to here are in sorted order.
    sorted_end: usize,
    /// The quiet moves scoring at least the limit end here (the rest come unsorted).
    above_end: usize,
    end_bad: usize,
    refutations: [Option<Move>; 3],
    refutation: usize,
    last_bad: bool,
    depth: i32,
    /// Set once only quiet checks are wanted: what tells them apart.
    checks_only: Option<CheckSquares>,
    /// Set once only quiet checks are wanted among the quiet moves scoring below this (and the
    /// check squares): from the first such quiet move on, `checks_only`.
    checks_below: Option<(i32, CheckSquares)>,
    /// The quiet moves were generated when only checks were wanted: the list holds only checks.
    checks_listed: bool,
}

/// Quiet scores are history × this, minus the generation index (distinct, ties in order).
const TIE_SLOTS: i32 = 1024;

/// How many of the quiet moves above the limit are sorted at first: the rest only if the picker
/// gets there (a node that prunes late moves by count wants only the quiet checks among them).
/// 16 cost `hisha bench 6` fewer instructions than 6, 32, or 4 + 2·depth² up to depth 4 and all
/// deeper.
const FIRST_SORTED: usize = 16;

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
            scores: FixedList::new(),
            cur: 0,
            sorted_end: 0,
            above_end: 0,
            end_bad: 0,
            refutations: [None; 3],
            refutation: 0,
            last_bad: false,
            depth,
            checks_only: None,
            checks_below: None,
            checks_listed: false,
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

    /// From now on the quiet stage hands out only moves that give check: the node's late-move
    /// pruning has started and would prune every other quiet move, so they are not worth the
    /// search's per-move work (Stockfish and YaneuraOu skip even the checks; that lost here).
    /// Told before the quiet moves are generated, the picker leaves the others out unscored.
    /// `checks` are the node's check squares.
    pub fn quiet_checks_only(&mut self, checks: &CheckSquares) {
        if self.checks_only.is_none() && !self.checks_listed {
            self.checks_only = Some(*checks);
        }
    }

    /// Quiet moves whose history is below `history` are handed out only if they give check:
    /// futility pruning would prune the others. The quiet moves come in order of history as far
    /// as the limit, so from the first one below it the picker wants only checks; past the limit
    /// each is told apart. Told before the quiet moves are generated, the picker leaves out every
    /// quiet move but the checks (those above the bound too: the sort that would find them is
    /// what it saves). `checks` are the node's check squares.
    pub fn quiet_checks_below(&mut self, history: i32, checks: &CheckSquares) {
        if self.checks_only.is_none() && !self.checks_listed {
            // A score is history × TIE_SLOTS less an index below TIE_SLOTS.
            self.checks_below = Some((history * TIE_SLOTS - (TIE_SLOTS - 1), *checks));
        }
    }

    /// True if the last move handed out was a capture or promotion that loses material by SEE.
    pub fn last_was_bad_capture(&self) -> bool {
        self.last_bad
    }

    fn keep(tt_move: Option<Move>, pos: &Position, m: Move) -> bool {
        Some(m) != tt_move && !is_useless_non_promotion(pos, m)
    }

    /// The next move, or `None` when all were handed out.
    pub fn next(&mut self, pos: &Position, ctx: &Context) -> Option<Move> {
        self.last_bad = false;
        loop {
            let picked = match self.stage {
                Stage::TtMove => {
                    self.stage = if pos.in_check() { Stage::GenerateEvasions } else { Stage::GenerateCaptures };
                    return self.tt_move;
                }
                Stage::GenerateCaptures => {
                    self.generate_captures(pos, ctx);
                    continue;
                }
                Stage::GoodCaptures => self.good_capture(pos, ctx),
                Stage::Refutations => self.refutation(pos),
                Stage::GenerateQuiets => {
                    self.generate_quiets(pos, ctx);
                    continue;
                }
                Stage::Quiets => self.quiet(pos),
                Stage::BadCaptures => self.bad_capture(),
                Stage::GenerateEvasions => {
                    self.generate_evasions(pos, ctx);
                    continue;
                }
                Stage::Evasions => self.evasion(),
                Stage::Done => return None,
            };
            if picked.is_some() {
                return picked;
            }
        }
    }

    /// Generates the captures and promotions (in quiescence, only its moves) by MVV-LVA and
    /// capture history.
    #[inline(never)]
    fn generate_captures(&mut self, pos: &Position, ctx: &Context) {
        let kind = if self.quiescence { Gen::QuiescenceCaptures } else { Gen::Captures };
        generate(pos, kind, &mut self.moves);
        let tt = self.tt_move;
        self.moves.retain(|m| Self::keep(tt, pos, m));
        self.scores.clear();
        self.scores.extend(self.moves.iter().map(|&m| {
            let learnt = CaptureKey::of(pos, m).map_or(0, |k| ctx.history.capture_score(k));
            mvv_lva(pos, m) + learnt / 2
        }));
        self.stage = Stage::GoodCaptures;
    }

    /// The best capture left if it does not lose material by SEE; a losing one is set aside for
    /// the last stage (not at all in quiescence). `None` also when the stage is over.
    #[inline(always)]
    fn good_capture(&mut self, pos: &Position, ctx: &Context) -> Option<Move> {
        let end = self.moves.len();
        match self.select_best(end) {
            Some((m, _)) if see_ge(pos, m, 0) => return Some(m),
            Some((m, _)) => {
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
        None
    }

    /// The next killer or counter move, if it is a legal quiet move not handed out before.
    #[inline(always)]
    fn refutation(&mut self, pos: &Position) -> Option<Move> {
        if self.refutation >= self.refutations.len() {
            self.stage = Stage::GenerateQuiets;
            return None;
        }
        let r = self.refutations[self.refutation];
        self.refutation += 1;
        let m = r?;
        let earlier = self.refutations[..self.refutation - 1].contains(&Some(m));
        let quiet = !is_capture(pos, m) && !m.is_promotion();
        if !earlier && quiet && Self::keep(self.tt_move, pos, m) && pos.is_legal(m) {
            return Some(m);
        }
        self.refutations[self.refutation - 1] = None;
        None
    }

    /// Generates the quiet moves and sorts them by history (those handed out already skipped).
    #[inline(never)]
    fn generate_quiets(&mut self, pos: &Position, ctx: &Context) {
        let start = self.moves.len();
        self.cur = start;
        // The captures' scores stay in front, one for each capture.
        self.scores.truncate(start);
        debug_assert_eq!(self.scores.len(), start);
        let [r0, r1, r2] = self.refutations;
        let scorer = ctx.history.quiet_scorer(pos.side_to_move(), &ctx.previous);
        // Ties keep generation order (board moves before drops), which is worth much more than
        // an arbitrary order: the low bits hold the position.
        // Where only quiet checks are wanted already (late-move pruning or the futility bound
        // started before the quiet moves), the others are left out unscored; under the futility
        // bound that drops its history exemption (the sort that would tell it is not done yet).
        let checks = self.checks_only.take().or(self.checks_below.take().map(|(_, c)| c));
        self.checks_listed = checks.is_some();
        let handed_out = [self.tt_move, r0, r1, r2];
        let mut sink = QuietSink::new(pos, &mut self.moves, &mut self.scores, scorer, handed_out, checks);
        generate_to(pos, Gen::Quiets, &mut sink);
        self.sort_quiets(start, -3_000 * TIE_SLOTS * self.depth.max(1));
        self.stage = Stage::Quiets;
    }

    /// The next quiet move in sorted order.
    #[inline(always)]
    fn quiet(&mut self, pos: &Position) -> Option<Move> {
        loop {
            if self.cur >= self.sorted_end && self.sorted_end < self.above_end {
                self.sort_rest(pos);
            }
            let Some(&m) = self.moves.get(self.cur) else { break };
            if let Some((below, checks)) = self.checks_below {
                let score = self.scores[self.cur];
                if score < below && score != SKIP {
                    if self.cur < self.above_end {
                        // In sorted order: every quiet move from here on scores less.
                        self.checks_only = Some(checks);
                        self.checks_below = None;
                    } else if !checks.gives_check(pos, m) {
                        // Below the limit the moves come unsorted: one at a time.
                        self.cur += 1;
                        continue;
                    }
                }
            }
            let skipped =
                self.scores[self.cur] == SKIP || self.checks_only.as_ref().is_some_and(|c| !c.gives_check(pos, m));
            self.cur += 1;
            if !skipped {
                return Some(m);
            }
        }
        self.stage = Stage::BadCaptures;
        self.cur = 0;
        None
    }

    /// The next capture set aside as losing.
    #[inline(always)]
    fn bad_capture(&mut self) -> Option<Move> {
        if self.cur < self.end_bad {
            self.cur += 1;
            self.last_bad = true;
            return Some(self.moves[self.cur - 1]);
        }
        self.stage = Stage::Done;
        None
    }

    /// Generates the evasions: captures and promotions first by MVV-LVA, the rest by history.
    #[inline(never)]
    fn generate_evasions(&mut self, pos: &Position, ctx: &Context) {
        generate(pos, Gen::Legal, &mut self.moves);
        let tt = self.tt_move;
        self.moves.retain(|m| Self::keep(tt, pos, m));
        let scorer = ctx.history.quiet_scorer(pos.side_to_move(), &ctx.previous);
        self.scores.clear();
        self.scores.extend(self.moves.iter().map(|&m| {
            if is_capture(pos, m) || m.is_promotion() {
                (1 << 24) + mvv_lva(pos, m)
            } else {
                ContKey::of(pos, m).map_or(0, |k| scorer.score(m, k))
            }
        }));
        self.stage = Stage::Evasions;
    }

    /// The best evasion left.
    #[inline(always)]
    fn evasion(&mut self) -> Option<Move> {
        let end = self.moves.len();
        let picked = self.select_best(end).map(|(m, _)| m);
        if picked.is_none() {
            self.stage = Stage::Done;
        }
        picked
    }
}

#[cfg(test)]
mod tests;
