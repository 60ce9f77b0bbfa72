//! Round trips: every writer's output read back gives the same game, over generated games with
//! drops, promotions, declined promotions, captures by promoted pieces, every handicap and SFEN
//! starts, every result kind, comments, engine data and nested variations. Formats that cannot
//! hold something are compared without it, as each module documents: KI2 keeps no times, engine
//! data or variations; CSA no variations and no SFEN move number; USI only the start and moves.

use super::games::{REASONS, after, declines, generated_games};
use crate::support::records::written as write_all;
use hisha::Handicap;
use hisha::position::{GameResult, Winner};
use hisha::record::{Format, GameRecord, Start, read_games};

/// KIF, KI2 and CSA write comments a line at a time, and consecutive lines are one comment.
fn joined(comments: &mut Vec<String>) {
    if comments.len() > 1 {
        *comments = vec![comments.join("\n")];
    }
}

fn what_the_format_keeps(rec: &GameRecord, f: Format) -> GameRecord {
    let mut r = rec.normalized();
    if matches!(f, Format::Kif | Format::Kifu | Format::Ki2 | Format::Ki2u | Format::Csa) {
        joined(&mut r.summary);
        for m in r.moves.iter_mut().chain(r.variations.iter_mut().flat_map(|v| v.moves.iter_mut())) {
            joined(&mut m.comments);
        }
    }
    match f {
        Format::Usi => r = GameRecord::new(r.start.clone(), r.moves.iter().map(|m| m.mv)),
        Format::Ki2 | Format::Ki2u => {
            r.variations.clear();
            r.end_time_ms = None;
            for m in &mut r.moves {
                m.time_ms = None;
                m.total_ms = None;
            }
        }
        Format::Csa => {
            r.variations.clear();
            if let Start::Sfen(s) = &r.start {
                let fields: Vec<&str> = s.split_whitespace().take(3).collect();
                r.start = Start::Sfen(format!("{} 1", fields.join(" ")));
            }
        }
        _ => {}
    }
    r
}

/// Compares two records part by part, so that a failure names the part.
fn assert_same(got: &GameRecord, want: &GameRecord, what: &str) {
    assert_eq!(got.tags, want.tags, "{what}: tags");
    assert_eq!(got.start, want.start, "{what}: start");
    assert_eq!(got.summary, want.summary, "{what}: summary");
    assert_eq!(got.moves.len(), want.moves.len(), "{what}: moves");
    for (i, (a, b)) in got.moves.iter().zip(&want.moves).enumerate() {
        assert_eq!(a, b, "{what}: move {}", i + 1);
    }
    assert_eq!(got.variations, want.variations, "{what}: variations");
    assert_eq!((got.result, got.end_time_ms), (want.result, want.end_time_ms), "{what}: result");
}

#[test]
fn the_generated_games_have_every_feature() {
    let games = generated_games(76, 4);
    let mut seen = [false; 8];
    for g in &games {
        let mut p = g.start.position().expect("valid");
        for m in &g.moves {
            seen[0] |= m.mv.is_drop();
            seen[1] |= m.mv.is_promotion();
            seen[2] |= declines(&p, m.mv);
            seen[3] |= p.piece_on(m.mv.to()).is_some() && p.moved_piece(m.mv).is_some_and(|x| x.kind().is_promoted());
            p.do_move(m.mv);
        }
        seen[4] |= g.variations.iter().any(|v| v.parent.is_some());
        seen[5] |= matches!(g.start, Start::Sfen(_));
        seen[6] |= g.moves.iter().any(|m| !m.comments.is_empty() && !m.engine.is_empty());
        seen[7] |= g.end_time_ms.is_some();
    }
    assert_eq!(
        seen, [true; 8],
        "drop, promotion, declined promotion, capture by a promoted piece, nested variation, SFEN start, comments with engine data, end time"
    );
    for h in Handicap::ALL {
        assert!(games.iter().any(|g| g.start == Start::Handicap(h)), "{h:?}");
    }
    for r in REASONS {
        assert!(games.iter().any(|g| g.result.map(|x| x.reason) == Some(r)), "{r:?}");
    }
}

#[test]
fn every_writer_round_trips_generated_games() {
    let games = generated_games(76, 4);
    for f in Format::ALL {
        let bytes = write_all(&games, f);
        let back = read_games(&bytes, f);
        assert_eq!(back.len(), games.len(), "{f}: game count");
        for (i, (g, b)) in games.iter().zip(back).enumerate() {
            let b = b.unwrap_or_else(|e| panic!("{f} game {i}: {e}\n{}", String::from_utf8_lossy(&bytes)));
            assert_same(&b, &what_the_format_keeps(g, f), &format!("{f} game {i}"));
        }
        // Content detection finds the format again (KIF and KIFU differ only in encoding).
        let text = hisha::record::decode_text(&bytes);
        let detected = hisha::record::detect_format(&text, None);
        // KIF and KIFU, KI2 and KI2U differ only in encoding.
        let expected = match f {
            Format::Kifu => Format::Kif,
            Format::Ki2u => Format::Ki2,
            f => f,
        };
        assert_eq!(detected, Some(expected), "{f}");
    }
}

#[test]
fn writing_what_was_read_gives_the_same_text() {
    // A record read from a file writes back to the same file (variation order and numbering
    // included), so a GUI's file survives a trip through hisha.
    let games = generated_games(40, 7);
    for f in Format::ALL {
        let once = write_all(&games, f);
        let read: Vec<GameRecord> = read_games(&once, f).into_iter().map(|r| r.expect("reads")).collect();
        assert_eq!(write_all(&read, f), once, "{f}");
    }
}

#[test]
fn every_result_kind_round_trips_in_every_format_with_results() {
    // Either side to move at the end, and a handicap start (下手/上手 in KIF's and KI2's `まで` line).
    let starts =
        [(Start::default(), "7g7f"), (Start::default(), "7g7f 3c3d"), (Start::Handicap(Handicap::TwoPiece), "3c3d")];
    for f in [Format::Psn, Format::Psn2, Format::Kif, Format::Kifu, Format::Ki2, Format::Ki2u, Format::Csa] {
        for (start, line) in &starts {
            let mut pos = start.position().expect("valid");
            let moves: Vec<hisha::Move> = line
                .split(' ')
                .map(|u| {
                    let m = pos.parse_usi_move(u).expect("legal");
                    pos.do_move(m);
                    m
                })
                .collect();
            for reason in REASONS {
                for winner in [Winner::Black, Winner::White, Winner::Draw, Winner::Unfinished] {
                    let mut rec = GameRecord::new(start.clone(), moves.iter().copied());
                    rec.result = Some(GameResult { winner, reason });
                    let back = read_games(&write_all([&rec], f), f).remove(0);
                    let back = back.unwrap_or_else(|e| panic!("{f} {reason:?}: {e}"));
                    assert_eq!(back.result, rec.result, "{f} after {line}: {winner:?} by {reason:?}");
                }
            }
        }
    }
}

#[test]
fn sfen_starts_number_moves_and_variations_from_the_sfen_move_number() {
    // MyShogi numbers move lines (and Variation:N) from the SFEN's move number; a record that
    // starts at move 124 has its first move written `124.` and a branch at its 3rd move `126`.
    let games = generated_games(76, 4);
    let g = games.iter().find(|g| g.start.sfen().ends_with(" 124") && !g.variations.is_empty());
    let g = g.cloned().unwrap_or_else(|| {
        let mut g = games.iter().find(|g| g.start.sfen().ends_with(" 124")).cloned().expect("an SFEN game");
        let at = after(&g.start, &[g.moves[0].mv, g.moves[1].mv]);
        let alt = at.legal_moves()[0];
        g.variations.push(hisha::record::Variation {
            ply: 3,
            parent: None,
            moves: vec![hisha::record::MoveRecord::new(alt)],
        });
        g
    });
    for f in [Format::Psn, Format::Psn2] {
        let text = String::from_utf8_lossy(&write_all([&g], f)).into_owned();
        assert!(text.lines().any(|l| l.starts_with("124.")), "{f}: {text}");
        assert!(!text.lines().any(|l| l.starts_with("1.")), "{f}: {text}");
        let v = g.normalized().variations[0].ply + 123;
        assert!(text.contains(&format!("Variation:{v}\n{v}.")), "{f}: {text}");
    }
    let kif = String::from_utf8_lossy(&write_all([&g], Format::Kifu)).into_owned();
    assert!(kif.contains("手数＝123\n"), "{kif}");
    assert!(kif.contains("\n 124 "), "{kif}");
}
