//! Position invariants over random playouts, repetition and declaration rules.

use super::*;
use crate::movegen::MoveList;
use crate::testing::play;
use rand::{Rng, SeedableRng, rngs::StdRng};

/// Plays up to `plies` random legal moves from `start`, calling `visit` at every position.
pub(crate) fn random_playout(start: &Position, rng: &mut StdRng, plies: usize, mut visit: impl FnMut(&mut Position)) {
    let mut pos = start.clone();
    for _ in 0..plies {
        visit(&mut pos);
        let moves: MoveList = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        // Favour captures and drops now and then so that hands fill up.
        let m = moves[rng.random_range(0..moves.len())];
        pos.do_move(m);
    }
    visit(&mut pos);
}

fn fresh_key(pos: &Position) -> u64 {
    Position::from_sfen(&pos.to_sfen()).expect("reachable positions are valid").key()
}

#[test]
fn incremental_key_equals_fresh_key_and_undo_restores_everything() {
    let mut rng = StdRng::seed_from_u64(11);
    for game in 0..200 {
        let start = if game % 4 == 0 { Position::handicap(Handicap::ALL[game % 16]) } else { Position::startpos() };
        random_playout(&start, &mut rng, 160, |pos| {
            assert_eq!(pos.key(), fresh_key(pos), "{}", pos.to_sfen());
            let before = (pos.to_sfen(), pos.key(), pos.checkers(), pos.pinned());
            for m in pos.legal_moves().iter().take(40) {
                pos.do_move(*m);
                assert_eq!(pos.key(), fresh_key(pos), "after {m}: {}", pos.to_sfen());
                pos.undo_move();
                assert_eq!((pos.to_sfen(), pos.key(), pos.checkers(), pos.pinned()), before, "after {m}");
            }
        });
    }
}

#[test]
fn sfen_round_trips_for_every_position_in_random_playouts() {
    let mut rng = StdRng::seed_from_u64(12);
    for _ in 0..300 {
        random_playout(&Position::startpos(), &mut rng, 200, |pos| {
            let s = pos.to_sfen();
            let back = Position::from_sfen(&s).expect("valid");
            assert_eq!(back.to_sfen(), s);
            assert_eq!(&back, &*pos);
        });
    }
}

#[test]
fn null_move_flips_side_and_key_only() {
    let mut p = Position::startpos();
    let k = p.key();
    p.do_null_move();
    assert_eq!(p.side_to_move(), Color::White);
    assert_ne!(p.key(), k);
    p.undo_move();
    assert_eq!((p.side_to_move(), p.key()), (Color::Black, k));
}

#[test]
fn sennichite_is_the_fourth_occurrence_and_a_draw() {
    let mut p = Position::startpos();
    let cycle = ["2h3h", "8b7b", "3h2h", "7b8b"];
    play(&mut p, &cycle);
    assert_eq!(p.repetition(4), Repetition::None);
    assert_eq!(p.repetition(2), Repetition::Draw);
    play(&mut p, &cycle);
    assert_eq!(p.repetition(4), Repetition::None, "third occurrence");
    play(&mut p, &cycle);
    assert_eq!(p.repetition(4), Repetition::Draw, "fourth occurrence");
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    // Black's rook on 2i chases White's king between 1a and 2a with a check on every move:
    // 2i1i+ 1a2a 1i2i+ 2a1a returns to the start position.
    let mut p = Position::from_sfen("8k/9/9/9/9/9/9/9/K6R1 b - 1").expect("valid");
    let cycle = ["2i1i", "1a2a", "1i2i", "2a1a"];
    for _ in 0..2 {
        play(&mut p, &cycle);
        assert_eq!(p.repetition(4), Repetition::None);
    }
    assert_eq!(p.repetition(2), Repetition::PerpetualCheckBy(Color::Black));
    play(&mut p, &cycle);
    // The start position has now occurred four times and Black checked on every move since the
    // first occurrence: Black loses (rules.md §5).
    assert_eq!(p.repetition(4), Repetition::PerpetualCheckBy(Color::Black));
}

#[test]
fn declaration_points_and_rules() {
    // Black king on 5a; in the camp 9 tokins and a dragon (10 pieces: 9 + 5 = 14 points); in hand
    // R B 2G (5 + 5 + 1 + 1 = 12 points): 26 in all.
    let camp = "+P+P+P+PK+P+P+P+P/+P+R7/9/9/9/9/9/9/k8 b";
    let p = Position::from_sfen(&format!("{camp} RB2G 1")).expect("valid");
    assert_eq!(p.declaration_points(Color::Black), 26);
    assert_eq!(p.declaration(EnteringKingRule::Point27), DeclarationOutcome::Invalid("not enough points"));
    assert_eq!(p.declaration(EnteringKingRule::Point24), DeclarationOutcome::Draw);
    // Two more silvers: 28, exactly what Black needs under the 27-point rule (rules.md §6.1).
    let p = Position::from_sfen(&format!("{camp} RB2G2S 1")).expect("valid");
    assert_eq!(p.declaration_points(Color::Black), 28);
    assert_eq!(p.declaration(EnteringKingRule::Point27), DeclarationOutcome::Win);
    assert_eq!(p.declaration(EnteringKingRule::Point24), DeclarationOutcome::Draw);
    assert_eq!(p.declaration(EnteringKingRule::None), DeclarationOutcome::Invalid("declarations are disabled"));
    // 31 points wins under the 24-point rule (rules.md §6.2).
    let p = Position::from_sfen(&format!("{camp} RB2G2S3L 1")).expect("valid");
    assert_eq!(p.declaration(EnteringKingRule::Point24), DeclarationOutcome::Win);
    // Only seven pieces in the camp.
    let p = Position::from_sfen("+P+P+P+PK+P+P+P1/9/9/9/9/9/9/9/k8 b 2R2B4G 1").expect("valid");
    assert_eq!(
        p.declaration(EnteringKingRule::Point27),
        DeclarationOutcome::Invalid("fewer than 10 pieces in the enemy camp")
    );
    // The king outside the camp.
    let p = Position::from_sfen("+P+P+P+P1+P+P+P+P/+P+R7/4K4/9/9/9/9/9/k8 b 2R2B4G 1");
    assert!(p.is_err(), "two rooks on board plus two in hand is too many");
    let p = Position::from_sfen("+P+P+P+P1+P+P+P+P/+P+R7/9/4K4/9/9/9/9/k8 b B4G 1").expect("valid");
    assert_eq!(
        p.declaration(EnteringKingRule::Point27),
        DeclarationOutcome::Invalid("the king is not in the enemy camp")
    );
}

#[test]
fn no_black_king_rules() {
    // How each rule treats a missing Black king (documented in setup.rs).
    // SFEN: White to move with no Black king is fine (nothing of Black's can be in check).
    let p = Position::from_sfen("4k4/9/9/9/9/9/9/4r4/4S4 w - 1").expect("tsume-style setup");
    assert!(!p.in_check());
    // White's moves never give check and never leave Black in check.
    for m in p.legal_moves().iter() {
        assert!(!p.gives_check(*m), "{m}");
    }
    // Black's moves are never illegal for king safety: the silver on 5i, which would be pinned by
    // the rook on 5h against a king behind it, has all its moves, and nothing is pinned.
    let p = Position::from_sfen("4k4/9/9/9/9/9/9/4r4/4S4 b - 1").expect("valid");
    assert_eq!(p.pinned(), Bitboard::EMPTY);
    assert_eq!(p.legal_moves().len(), 3, "5i5h, 5i4h and 5i6h");
    // Uchifuzume still protects White's king (the uchifuzume_85 position without Black's king).
    let p = Position::from_sfen("7lk/9/8S/9/9/9/9/7L1/9 b P 1").expect("valid");
    let drop = p.parse_usi_move("P*1b");
    assert!(matches!(drop, Err(crate::position::MoveError::Illegal { kind: IllegalMoveKind::Uchifuzume, .. })));
    // Black cannot declare an entering-king win.
    assert_eq!(p.declaration(EnteringKingRule::Point27), DeclarationOutcome::Invalid("no king"));
    // Black with no move at all is not checkmated, but has no legal move (and loses by the
    // no-move rule, rules.md §4).
    let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1").expect("valid");
    assert!(!p.is_checkmate());
    assert!(!p.has_legal_move());
    // Repetition: only Black can give perpetual check. Black's rook chases the king 1a-2a.
    let mut p = Position::from_sfen("8k/9/9/9/9/9/9/9/7R1 b - 1").expect("valid");
    for _ in 0..3 {
        play(&mut p, &["2i1i", "1a2a", "1i2i", "2a1a"]);
    }
    assert_eq!(p.repetition(4), Repetition::PerpetualCheckBy(Color::Black));
}

#[test]
fn game_result_records_winner_and_reason() {
    let r = GameResult::loss(Color::White, ResultReason::Checkmate);
    assert_eq!((r.winner, r.reason), (Winner::Black, ResultReason::Checkmate));
    assert_eq!(r.to_string(), "Black wins by checkmate");
    let r = GameResult::win(Color::White, ResultReason::PerpetualCheck);
    assert_eq!(r.to_string(), "White wins by perpetual check");
    assert_eq!(GameResult::draw(ResultReason::Repetition).to_string(), "draw by repetition");
    assert_eq!(GameResult::draw(ResultReason::Repetition).winner, Winner::Draw);
    let r = GameResult { winner: Winner::Unfinished, reason: ResultReason::Interrupt };
    assert_eq!(r.to_string(), "unfinished (interrupted)");
}

#[test]
fn gives_check_says_whether_the_opponent_is_in_check_after_the_move() {
    // The reference: play the move and ask the position. Random playouts from the 16 handicap
    // starts reach direct checks by every kind, drops and discovered checks along files, ranks and
    // diagonals; the counts below make sure each kind of check was met.
    let mut rng = StdRng::seed_from_u64(133);
    let (mut checks, mut drops, mut discovered) = (0, 0, 0);
    for h in Handicap::ALL {
        for _ in 0..20 {
            random_playout(&Position::handicap(h), &mut rng, 160, |pos| {
                for &m in pos.legal_moves().iter() {
                    let said = pos.gives_check(m);
                    pos.do_move(m);
                    let checkers = pos.checkers();
                    pos.undo_move();
                    assert_eq!(said, checkers.is_nonempty(), "{m} in {}", pos.to_sfen());
                    if said {
                        checks += 1;
                        drops += m.is_drop() as usize;
                        // A check by a piece other than the moved one is a discovered check.
                        discovered += !checkers.has(m.to()) as usize;
                    }
                }
            });
        }
    }
    assert!(
        checks > 1_000 && drops > 100 && discovered > 10,
        "{checks} checks, {drops} drops, {discovered} discovered"
    );
}

#[test]
fn attackers_are_the_pieces_whose_attacks_reach_the_square() {
    let (mut rng, mut lift) = (StdRng::seed_from_u64(29), StdRng::seed_from_u64(31));
    for game in 0..60 {
        let start = if game % 4 == 0 { Position::handicap(Handicap::ALL[game % 16]) } else { Position::startpos() };
        random_playout(&start, &mut rng, 160, |pos| {
            // The board's occupancy and one with about a quarter of the pieces lifted (as SEE does).
            let lifted = Bitboard(pos.occupied().0 & (lift.random::<u128>() | lift.random::<u128>()));
            for occ in [pos.occupied(), lifted] {
                for sq in Square::all() {
                    let by = |c: Color| -> Bitboard {
                        let mut b = Bitboard::EMPTY;
                        for from in pos.pieces_of(c) {
                            let piece = pos.piece_on(from).expect("a piece");
                            if attacks::piece(c, piece.kind(), from, occ).has(sq) {
                                b = b.with(from);
                            }
                        }
                        b
                    };
                    let (black, white) = (by(Color::Black), by(Color::White));
                    assert_eq!(pos.attackers_to(Color::Black, sq, occ), black, "{} {sq}", pos.to_sfen());
                    assert_eq!(pos.attackers_to(Color::White, sq, occ), white, "{} {sq}", pos.to_sfen());
                    assert_eq!(pos.is_attacked(Color::Black, sq, occ), black.is_nonempty(), "{sq}");
                    assert_eq!(pos.attackers_to_both(sq, occ), black | white, "{} {sq}", pos.to_sfen());
                }
            }
        });
    }
}
