//! Training samples: each record decoded once into what the network reads — the 38 piece numbers
//! and the two king squares seen from the side to move and from the other side — with its score
//! and result. Decoding runs on all threads; records that do not decode are counted and skipped.

use hisha::Position;
use hisha::eval::nnue::bona_piece::{FE_END, PIECE_LIST_LEN};
use hisha::eval::nnue::features;
use hisha_nnue::packed_sfen::{PackedSfen, PackedSfenValue, move_from_yaneuraou};

/// One position as the network sees it, perspectives ordered side to move first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Piece numbers (no kings) from each perspective.
    pub pieces: [[u16; PIECE_LIST_LEN]; 2],
    /// Per perspective: its own king's square and the enemy king's, both as it sees them.
    pub kings: [[u8; 2]; 2],
    /// The search score, side to move's view.
    pub score: i16,
    /// The game result for the side to move: 1, 0, -1.
    pub result: i8,
}

impl Sample {
    /// The sample of `pos` with a score and result.
    pub fn of(pos: &Position, score: i16, result: i8) -> Sample {
        let mut s = Sample { pieces: [[0; PIECE_LIST_LEN]; 2], kings: [[0; 2]; 2], score, result };
        let us = pos.side_to_move();
        for (i, perspective) in [us, !us].into_iter().enumerate() {
            let mut n = 0;
            features::piece_numbers(pos, perspective, |p| {
                s.pieces[i][n] = p;
                n += 1;
            });
            s.kings[i] = [
                features::king_square(pos, perspective, perspective) as u8,
                features::king_square(pos, !perspective, perspective) as u8,
            ];
        }
        s
    }

    /// The sample mirrored left to right (files 1 <-> 9): a position as likely as the original,
    /// with the same score and result (shogi's rules are symmetric that way).
    pub fn mirrored(&self) -> Sample {
        let mut m = *self;
        for (pieces, kings) in m.pieces.iter_mut().zip(&mut m.kings) {
            for p in pieces.iter_mut() {
                *p = mirror_piece(*p);
            }
            for k in kings.iter_mut() {
                *k = mirror_square(*k as usize) as u8;
            }
        }
        m
    }
}

/// `sq` mirrored left to right.
fn mirror_square(sq: usize) -> usize {
    (8 - sq / 9) * 9 + sq % 9
}

/// Piece number `p` mirrored left to right (hand numbers have no square and stay).
fn mirror_piece(p: u16) -> u16 {
    const BOARD: u16 = 90;
    if !(BOARD..FE_END).contains(&p) {
        return p;
    }
    let (block, sq) = ((p - BOARD) / 81, (p - BOARD) % 81);
    BOARD + block * 81 + mirror_square(sq.into()) as u16
}

/// Which records become samples.
#[derive(Clone, Copy, Debug)]
pub struct Filter {
    /// Keep records whose move is a capture or a promotion (the generator's choice otherwise).
    pub keep_tactical: bool,
    /// Drop records whose score's magnitude is at least this.
    pub score_limit: i32,
}

/// What loading kept and dropped.
#[derive(Clone, Copy, Debug, Default)]
pub struct LoadStats {
    /// Samples kept.
    pub kept: usize,
    /// Records that are no legal position.
    pub bad: usize,
    /// Records whose move is a capture or a promotion.
    pub tactical: usize,
    /// Records beyond the score limit.
    pub extreme: usize,
}

/// A kept record: its sample and its packed position (to evaluate with integer nets).
pub type Loaded = (Sample, PackedSfen);

fn load_one(r: &PackedSfenValue, filter: &Filter, stats: &mut LoadStats) -> Option<Loaded> {
    if i32::from(r.score).abs() >= filter.score_limit {
        stats.extreme += 1;
        return None;
    }
    let Ok(pos) = r.sfen.unpack() else {
        stats.bad += 1;
        return None;
    };
    if !filter.keep_tactical {
        if let Some(m) = move_from_yaneuraou(r.mv) {
            if pos.piece_on(m.to()).is_some() || m.is_promotion() {
                stats.tactical += 1;
                return None;
            }
        }
    }
    stats.kept += 1;
    Some((Sample::of(&pos, r.score, r.game_result.signum()), r.sfen))
}

/// Decodes `records` on `threads` threads, in order.
pub fn load(records: &[PackedSfenValue], filter: &Filter, threads: usize) -> (Vec<Loaded>, LoadStats) {
    let chunk = records.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<(Vec<Loaded>, LoadStats)> = std::thread::scope(|s| {
        let handles: Vec<_> = records
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut stats = LoadStats::default();
                    let kept = part.iter().filter_map(|r| load_one(r, filter, &mut stats)).collect();
                    (kept, stats)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
    });
    let mut stats = LoadStats::default();
    let mut all = Vec::with_capacity(records.len());
    for (kept, s) in parts {
        all.extend(kept);
        stats.kept += s.kept;
        stats.bad += s.bad;
        stats.tactical += s.tactical;
        stats.extreme += s.extreme;
    }
    (all, stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hisha::Color;
    use hisha::eval::nnue::FeatureSet;

    #[test]
    fn a_sample_holds_the_rows_the_inference_activates() {
        let pos = Position::from_sfen("ln1g3nl/1r1sk1gs1/p1pppp1pp/6p2/1p5P1/2P6/PPSPPPP1P/2G2S1R1/LN2KG1NL w Bb 14")
            .expect("valid");
        let s = Sample::of(&pos, 5, 1);
        for (i, perspective) in [Color::White, Color::Black].into_iter().enumerate() {
            let mut rows: Vec<u32> = s.pieces[i].iter().map(|&p| s.kings[i][0] as u32 * 1548 + p as u32).collect();
            let mut expected = features::active(FeatureSet::HalfKP, &pos, perspective).as_slice().to_vec();
            rows.sort_unstable();
            expected.sort_unstable();
            assert_eq!(rows, expected);
        }
    }

    #[test]
    fn a_mirrored_sample_is_the_sample_of_the_mirrored_position() {
        let sfen = "ln1g3nl/1r1sk1gs1/p1pppp1pp/6p2/1p5P1/2P6/PPSPPPP1P/2G2S1R1/LN2KG1NL w Bb 14";
        let pos = Position::from_sfen(sfen).expect("valid");
        let mirrored_sfen: String = {
            let (board, rest) = sfen.split_once(' ').expect("fields");
            let ranks: Vec<String> = board.split('/').map(mirror_rank).collect();
            format!("{} {rest}", ranks.join("/"))
        };
        let mirrored = Position::from_sfen(&mirrored_sfen).expect("valid");
        let (mut a, mut b) = (Sample::of(&pos, 0, 0).mirrored(), Sample::of(&mirrored, 0, 0));
        for s in [&mut a, &mut b] {
            for p in &mut s.pieces {
                p.sort_unstable();
            }
        }
        assert_eq!(a, b);
        assert_eq!(Sample::of(&pos, 0, 0).mirrored().mirrored(), Sample::of(&pos, 0, 0));
    }

    /// One SFEN rank read right to left (pieces with their `+`).
    fn mirror_rank(rank: &str) -> String {
        let mut tokens: Vec<String> = Vec::new();
        let mut pending = String::new();
        for c in rank.chars() {
            pending.push(c);
            if c != '+' {
                tokens.push(std::mem::take(&mut pending));
            }
        }
        tokens.reverse();
        tokens.concat()
    }

    #[test]
    fn tactical_extreme_and_broken_records_are_dropped_and_counted() {
        use hisha_nnue::packed_sfen::move_to_yaneuraou;
        let pos =
            Position::from_sfen("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 5").expect("valid");
        let sfen = PackedSfen::pack(&pos).expect("packable");
        let find = |usi: &str| pos.legal_moves().iter().copied().find(|m| m.to_string() == usi).expect("legal");
        let rec = |mv, score| PackedSfenValue { sfen, score, mv, game_ply: 4, game_result: 1, padding: 0 };
        let records = [
            rec(move_to_yaneuraou(find("8h2b+")), 10), // capture and promotion
            rec(move_to_yaneuraou(find("2g2f")), 10),
            rec(0, 10), // no move recorded: kept
            rec(0, 3000),
            PackedSfenValue { sfen: PackedSfen([0xFF; 32]), ..rec(0, 0) },
        ];
        let filter = Filter { keep_tactical: false, score_limit: 3000 };
        let (kept, stats) = load(&records, &filter, 2);
        assert_eq!((kept.len(), stats.tactical, stats.extreme, stats.bad), (2, 1, 1, 1));
        let (kept, _) = load(&records, &Filter { keep_tactical: true, ..filter }, 3);
        assert_eq!(kept.len(), 3);
    }
}
