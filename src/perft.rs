//! Perft: counting the leaf nodes of the legal-move tree, the standard correctness check for a
//! move generator. The last ply is *bulk-counted*: at depth 1 the legal moves are counted from
//! destination sets without being made or even built, as YaneuraOu and most peers do.

use crate::movegen::MoveList;
use crate::position::Position;
use crate::types::Move;

/// The number of leaf nodes `depth` plies below `pos` (1 at depth 0).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let moves: MoveList = pos.legal_moves();
            let mut total = 0;
            for &m in moves.iter() {
                pos.do_move(m);
                total += perft(pos, depth - 1);
                pos.undo_move();
            }
            total
        }
    }
}

/// Perft split by root move: each legal move with the leaf count below it, in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&m| {
            pos.do_move(m);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.undo_move();
            (m, n)
        })
        .collect()
}
