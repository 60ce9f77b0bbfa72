//! Distillation labels: every record's score replaced by hisha's linear evaluation of its
//! position (side to move's point of view, as the records keep it). A net trained on these with
//! `--lambda 1` learns to stand in for the linear evaluation; labels cost about a microsecond a
//! position instead of a search, so positions, not labels, are what is scarce: `expand` adds
//! positions a few random plies away from each record's (the kind of position a search
//! evaluates after a poor move), labelled the same way.

use crate::store::{self, GameSpan};
use hisha::Position;
use hisha_nnue::packed_sfen::{PackedSfen, PackedSfenValue};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::Path;

/// The most random plies between a record's position and a variant of it.
const MAX_VARIANT_PLIES: usize = 4;

/// What a relabelling did.
#[derive(Debug, PartialEq, Eq)]
pub struct Relabelled {
    /// Records written with the linear evaluation's score.
    pub records: usize,
    /// Records whose position could not be unpacked, written unchanged.
    pub broken: usize,
    /// Positions added a few random plies away from the records' (within `records`).
    pub variants: usize,
}

/// Writes `input`'s records to `out` (which must not exist), each score replaced by the linear
/// evaluation of its position clamped to the record's range, and after each up to `expand`
/// variants: the position after 1 to 4 random legal plies (seeded by `seed`), left out where the
/// side to move is in check or has no move. Each game keeps its id in the index, its span grown
/// by its variants.
pub fn relabel(input: &Path, out: &Path, expand: usize, seed: u64) -> Result<Relabelled, String> {
    let records = store::read_records(input)?;
    let games = store::read_games(input, &records)?;
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut written, mut spans, mut broken) = (Vec::new(), Vec::new(), 0);
    for game in &games {
        let start = written.len();
        for r in &records[game.start..game.start + game.len] {
            let Ok(pos) = r.position() else {
                broken += 1;
                written.push(*r);
                continue;
            };
            written.push(PackedSfenValue { score: linear_score(&pos), ..*r });
            for _ in 0..expand {
                written.extend(variant(&pos, r, &mut rng));
            }
        }
        spans.push(GameSpan { id: game.id, start, len: written.len() - start });
    }
    store::write_file(out, &written, Some(&spans))?;
    let variants = written.len() - records.len();
    Ok(Relabelled { records: written.len() - broken, broken, variants })
}

/// The linear evaluation of `pos` within a record's score range.
fn linear_score(pos: &Position) -> i16 {
    hisha::eval::evaluate(pos).clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
}

/// The record `1..=MAX_VARIANT_PLIES` random plies after `record`'s position `pos`, or `None` if
/// the walk reaches a position without a move or with the side to move in check.
fn variant(pos: &Position, record: &PackedSfenValue, rng: &mut StdRng) -> Option<PackedSfenValue> {
    let plies = rng.random_range(1..=MAX_VARIANT_PLIES);
    let mut walk = pos.clone();
    for _ in 0..plies {
        let moves = walk.legal_moves();
        if moves.is_empty() {
            return None;
        }
        walk.do_move(moves[rng.random_range(0..moves.len())]);
    }
    if walk.in_check() {
        return None;
    }
    let sfen = PackedSfen::pack(&walk).ok()?;
    // The game's result from the new side to move's point of view.
    let game_result = if plies % 2 == 1 { -record.game_result } else { record.game_result };
    Some(PackedSfenValue {
        sfen,
        score: linear_score(&walk),
        mv: 0,
        game_ply: record.game_ply.saturating_add(plies as u16),
        game_result,
        padding: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use hisha::Position;
    use hisha_nnue::packed_sfen::{PackedSfen, PackedSfenValue};

    #[test]
    fn relabelled_records_carry_the_linear_evaluation_and_keep_their_games() {
        let dir = store::test_dir("relabel");
        let mut pos = Position::startpos();
        let mut records = Vec::new();
        for (ply, mv) in ["7g7f", "3c3d", "8h2b+", "3a2b"].iter().enumerate() {
            let sfen = PackedSfen::pack(&pos).expect("packable");
            records.push(PackedSfenValue {
                sfen,
                score: 1234,
                mv: 0,
                game_ply: ply as u16 + 1,
                game_result: 0,
                padding: 0,
            });
            let m = pos.parse_usi_move(mv).expect("legal");
            pos.do_move(m);
        }
        let input = dir.join("in.psv");
        let games = [store::GameSpan { id: 7, start: 0, len: 2 }, store::GameSpan { id: 9, start: 2, len: 2 }];
        store::write_file(&input, &records, Some(&games)).expect("written");
        let out = dir.join("out.psv");
        assert_eq!(relabel(&input, &out, 0, 1), Ok(Relabelled { records: 4, broken: 0, variants: 0 }));
        let back = store::read_records(&out).expect("readable");
        for (r, original) in back.iter().zip(&records) {
            let pos = original.position().expect("unpacks");
            assert_eq!(i32::from(r.score), hisha::eval::evaluate(&pos));
            assert_eq!(
                (r.sfen.0, r.game_ply, r.game_result),
                (original.sfen.0, original.game_ply, original.game_result)
            );
        }
        assert_ne!(back[2].score, back[3].score, "a bishop up and a bishop down are not scored alike");
        assert_eq!(store::read_games(&out, &back).expect("index"), games);
        assert!(relabel(&input, &out, 0, 1).is_err(), "an existing output is refused");

        // Three variants a record: each a few legal plies on, scored by the linear evaluation,
        // kept in its game.
        let expanded = dir.join("expanded.psv");
        let done = relabel(&input, &expanded, 3, 5).expect("written");
        assert_eq!((done.records - done.variants, done.broken), (4, 0));
        assert!(done.variants > 4, "{done:?}");
        let all = store::read_records(&expanded).expect("readable");
        let spans = store::read_games(&expanded, &all).expect("index");
        assert_eq!(spans.iter().map(|g| g.id).collect::<Vec<_>>(), [7, 9]);
        assert_eq!(spans.iter().map(|g| g.len).sum::<usize>(), done.records);
        for r in &all {
            let pos = r.position().expect("unpacks");
            assert!(!pos.in_check());
            assert_eq!(i32::from(r.score), hisha::eval::evaluate(&pos));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
