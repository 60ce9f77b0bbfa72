//! `hisha bench`: a fixed set of positions searched to a fixed depth with a fresh transposition
//! table. With one thread the total node count is the search's signature (quote `Bench: <nodes>`
//! in commits that change search or evaluation); nodes/second measures speed. With more threads
//! (Lazy SMP) the count varies from run to run: only the speed means something. The evaluation
//! is the one given: the built-in one by default (`hisha bench`), or a net (`hisha bench
//! --evalfile PATH`), whose one-thread count is a signature of the search with that net.

use crate::eval::nnue::Network;
use crate::position::Position;
use crate::search::{Helpers, Limits, SearchControl, SearchOptions, Searcher};
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

#[cfg(test)]
mod tests {
    use super::*;

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
