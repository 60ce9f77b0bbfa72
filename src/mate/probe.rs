//! Mate probes for the main search: [`MateProbe`], a node-limited df-pn that keeps its table
//! between probes (facts are path-independent, so what one probe proved helps the next), and
//! [`mate_in_one_by_playing`], the reference that the search's bitboard mate in one
//! ([`super::mate_in_one`]) is tested and measured against.

use super::table::Known;
use super::{MateLimits, MateSolver, NEVER_STOP};
use crate::movegen::{Gen, MoveList, generate};
use crate::position::Position;
use crate::types::Move;

/// A mate in one for the side to move, if there is one, found by playing every legal check and
/// looking for a reply: a check after which the opponent has no legal move. Drops are included
/// and a mating pawn drop is never returned (it is illegal). The reference for
/// [`super::mate_in_one`], which answers the same from bitboards, several times faster.
pub fn mate_in_one_by_playing(pos: &mut Position) -> Option<Move> {
    pos.king_square(!pos.side_to_move())?;
    let mut checks = MoveList::new();
    generate(pos, Gen::Checks, &mut checks);
    checks.iter().copied().find(|&m| {
        pos.do_move(m);
        let mated = !pos.has_legal_move();
        pos.undo_move();
        mated
    })
}

/// A node-limited mate search for use inside the main search.
///
/// ```
/// use hisha::Position;
/// use hisha::mate::MateProbe;
/// let mut probe = MateProbe::new(4);
/// let mut pos = Position::from_sfen("7nl/7k1/9/6S1p/9/9/9/9/9 b GS2r2b3g2s3n3l17p 1").unwrap();
/// let (first, len) = probe.probe(&mut pos, 7, 2_000).unwrap();
/// assert_eq!((first.to_string(), len), ("S*2c".to_string(), 5));
/// ```
pub struct MateProbe {
    solver: MateSolver,
}

impl MateProbe {
    /// A probe with a table of about `hash_mib` MiB.
    pub fn new(hash_mib: usize) -> MateProbe {
        MateProbe { solver: MateSolver::new(hash_mib) }
    }

    /// Forgets everything learnt (for a new game).
    pub fn clear(&mut self) {
        self.solver.clear();
    }

    /// Has the system provide the table's pages now and keeps them (see `Table::populate`).
    pub(crate) fn populate(&mut self) {
        self.solver.populate();
    }

    /// Waits until the pages asked for by `populate` are there, or `deadline` passes.
    pub(crate) fn wait_populated(&self, deadline: std::time::Instant) -> bool {
        self.solver.wait_populated(deadline)
    }

    /// Nodes used by the last probe.
    pub fn nodes(&self) -> u64 {
        self.solver.nodes()
    }

    /// Looks for a mate of at most `max_ply` plies for the side to move, using at most about
    /// `nodes` nodes. Returns the first move and the length of the mate proven (an upper bound:
    /// it need not be the shortest). `pos` is searched in place and left as it was; its game
    /// history counts for repetitions.
    pub fn probe(&mut self, pos: &mut Position, max_ply: u32, nodes: u64) -> Option<(Move, u32)> {
        pos.king_square(!pos.side_to_move())?;
        let s = &mut self.solver;
        s.prepare(pos, &MateLimits { nodes: Some(nodes), deadline: None, max_ply: Some(max_ply) });
        let v = s.run(pos, true, max_ply.max(1), &NEVER_STOP)?;
        if v.pn != 0 {
            return None;
        }
        let mut checks = MoveList::new();
        generate(pos, Gen::Checks, &mut checks);
        let mut best: Option<(Move, u32)> = None;
        for &m in checks.iter() {
            pos.do_move(m);
            if let Known::Mate { len, .. } = s.known(pos, v.mate as u32 - 1) {
                if best.is_none_or(|(_, l)| len as u32 + 1 < l) {
                    best = Some((m, len as u32 + 1));
                }
            }
            pos.undo_move();
        }
        best
    }
}
