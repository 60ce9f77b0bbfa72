//! `hisha bench`: a fixed set of positions searched to a fixed depth with a fresh transposition
//! table. With one thread the total node count is the search's signature (quote `Bench: <nodes>`
//! in commits that change search or evaluation); nodes/second measures speed. With more threads
//! (Lazy SMP) the count varies from run to run: only the speed means something. The evaluation
//! is the one given: the built-in one by default (`hisha bench`), or a net (`hisha bench
//! --evalfile PATH`), whose one-thread count is a signature of the search with that net.

use crate::eval::nnue::Network;
use crate::position::Position;
use crate::search::{Helpers, Limits, SearchControl, SearchOptions, Searcher};
use rand::Rng;
use std::sync::Arc;
use std::time::Instant;

/// The bench positions: opening, middlegame, endgame, handicap and drop-rich positions.
pub const POSITIONS: [&str; 12] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsnl/1r7/p1ppp1bpp/1p3pp2/7P1/2P6/PP1PPPP1P/1B3S1R1/LNSGKG1NL b - 9",
    "ln1g3nl/1r1sk1gb1/p1pppp1pp/1p4s2/7P1/2P3P2/PPSPPPS1P/1BK4R1/LN1G1G1NL b P 21",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "l4S2l/4g1gs1/5p1p1/pr2N1pkp/4Gn3/PP3PPPP/2GPP4/1K7/L3r+s2L w BS2N5Pb 1",
    "6n1l/2+S1k4/2lp4p/1np1B2b1/3PP4/1N1S3rP/1P2+pPP+p1/1p1G5/3KG2r1 b GSN2L4Pgs2p 1",
    "ln1g5/1r2S1k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b w BGSLPnp 62",
    "ln3gsn1/7kl/3+B1p1p1/p4s2p/2P6/P2B3PP/1PNP+rPP2/2G3SK1/L4G1NL b G3Prs3p 65",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
    "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "7nl/5Psk1/5n1p1/6pPp/9/9/9/9/8K b RBGSrb3g2s2n3l13p 1",
];

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 8;

/// Result of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Total nodes over all positions (the signature).
    pub nodes: u64,
    /// Total wall time in ms.
    pub time_ms: u64,
}

/// Searches every bench position to `depth` with `threads` threads (nodes of all threads counted)
/// and a fresh 16 MiB table and history per position, evaluating with `net` (`None`: the linear
/// evaluation).
pub fn run(depth: u32, threads: usize, net: Option<&Arc<Network>>) -> BenchResult {
    let mut helpers = Helpers::default();
    let start = Instant::now();
    let mut nodes = 0;
    let control = SearchControl::default();
    let opts = SearchOptions::default();
    for sfen in POSITIONS {
        let Ok(mut pos) = Position::from_sfen(sfen) else {
            continue;
        };
        let mut searcher = Searcher::new(16);
        searcher.set_network(net.cloned());
        helpers.set_threads(threads, &mut searcher);
        helpers.share_table(searcher.table());
        helpers.clear();
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        control.reset(false);
        let out = helpers.search(&mut searcher, &mut pos, &limits, &opts, &control, &mut |_| {});
        nodes += out.nodes;
    }
    BenchResult { nodes, time_ms: start.elapsed().as_millis() as u64 }
}

/// A sample of positions for tests and measurements: from each of `starts` in turn, the start
/// and the positions after each random legal move drawn from `rng`, `plies` positions per start
/// (fewer where the game ends: the last one then has no legal move).
pub fn random_walks(starts: impl IntoIterator<Item = Position>, plies: usize, rng: &mut impl Rng) -> Vec<Position> {
    let mut out = Vec::new();
    for mut pos in starts {
        for _ in 0..plies {
            out.push(pos.clone());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.do_move(moves[rng.random_range(0..moves.len())]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{SeedableRng, rngs::StdRng};

    #[test]
    fn random_walks_give_plies_positions_per_start_each_a_legal_move_after_the_one_before() {
        let starts = [Position::startpos(), Position::handicap(crate::Handicap::TwoPiece)];
        let walks = random_walks(starts.clone(), 30, &mut StdRng::seed_from_u64(1));
        assert_eq!(walks.len(), 60);
        for (start, walk) in starts.iter().zip(walks.chunks(30)) {
            assert_eq!(&walk[0], start);
            for pair in walk.windows(2) {
                let mut reached = false;
                for &m in pair[0].legal_moves().iter() {
                    let mut p = pair[0].clone();
                    p.do_move(m);
                    reached |= p == pair[1];
                }
                assert!(reached, "{} follows {} by no legal move", pair[1].to_sfen(), pair[0].to_sfen());
            }
        }
        let again = random_walks(starts, 30, &mut StdRng::seed_from_u64(1));
        assert_eq!(again, walks, "the same seed walks the same way");
    }

    #[test]
    fn a_random_walk_stops_where_the_game_ends() {
        // White's king on 5a is mated by the gold on 5b, which the pawn on 5c guards.
        let mated = Position::from_sfen("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1").expect("valid SFEN");
        assert!(mated.legal_moves().is_empty(), "{}", mated.to_sfen());
        assert_eq!(random_walks([mated.clone()], 10, &mut StdRng::seed_from_u64(1)), vec![mated]);
    }

    #[test]
    fn one_thread_counts_the_same_nodes_every_run() {
        let (a, b) = (run(5, 1, None), run(5, 1, None));
        assert_eq!(a.nodes, b.nodes, "the single-thread bench is the search's signature");
        assert!(a.nodes > 0);
    }

    #[test]
    fn with_a_net_one_thread_counts_the_same_nodes_every_run_and_others_than_linear() {
        use crate::eval::nnue::{Architecture, Spread};
        let net = Arc::new(Network::random(Architecture::KP_256X2_32_32, 1, Spread::Typical));
        let (a, b) = (run(4, 1, Some(&net)), run(4, 1, Some(&net)));
        assert_eq!(a.nodes, b.nodes, "the single-thread bench with a net is a signature too");
        assert_ne!(a.nodes, run(4, 1, None).nodes, "the net is what the search evaluates with");
    }
}
