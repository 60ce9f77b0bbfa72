//! The engine driven directly, without a protocol: events in order, held and dropped answers,
//! book moves, mate searches, settings applied to every search.

use super::*;
use crate::search::Clock;

/// Hands the search thread's events to the engine until the search ends; the events emitted.
fn finish(engine: &mut Engine) -> Vec<EngineEvent> {
    let mut out = Vec::new();
    let events = engine.events();
    while engine.searching() {
        let ev = events.recv_timeout(Duration::from_secs(60)).expect("the search answers");
        engine.handle_event(ev, &mut |e| out.push(e));
    }
    out
}

fn go(engine: &mut Engine, limits: Limits) -> Vec<EngineEvent> {
    let mut out = Vec::new();
    engine.go(limits, &mut |e| out.push(e)).expect("starts");
    out.extend(finish(engine));
    out
}

fn depth(d: u32) -> Limits {
    Limits { depth: Some(d), ..Limits::default() }
}

fn best_of(events: &[EngineEvent]) -> crate::types::Move {
    match events.last() {
        Some(EngineEvent::BestMove(BestMove::Move { best, .. })) => *best,
        other => panic!("no best move last: {other:?}"),
    }
}

#[test]
fn a_search_reports_each_iteration_then_one_best_move() {
    let mut e = Engine::new(Settings::for_tests()).expect("starts");
    let events = go(&mut e, depth(3));
    let depths: Vec<u32> = events
        .iter()
        .filter_map(|ev| match ev {
            EngineEvent::Info(it) => Some(it.depth),
            _ => None,
        })
        .collect();
    assert_eq!(depths, [1, 2, 3], "{events:?}");
    assert!(Position::startpos().is_legal(best_of(&events)));
}

#[test]
fn the_settings_depth_limit_bounds_every_search() {
    let mut e = Engine::new(Settings { depth_limit: Some(2), ..Settings::for_tests() }).expect("starts");
    let events = go(&mut e, depth(6));
    assert!(events.iter().all(|ev| !matches!(ev, EngineEvent::Info(it) if it.depth > 2)), "{events:?}");
}

#[test]
fn an_infinite_search_answers_only_after_stop_and_a_second_go_is_refused() {
    let mut e = Engine::new(Settings::for_tests()).expect("starts");
    let mut out = Vec::new();
    e.go(Limits { infinite: true, depth: Some(2), ..Limits::default() }, &mut |ev| out.push(ev)).expect("starts");
    assert_eq!(e.go(depth(1), &mut |ev| out.push(ev)), Err(GoError::Busy));
    assert_eq!(e.go_mate(None), Err(GoError::Busy));
    // The depth-2 search is done long before this; its answer waits for stop.
    let events = e.events();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !out.iter().any(|ev| matches!(ev, EngineEvent::Info(it) if it.depth == 2)) && Instant::now() < deadline {
        if let Ok(ev) = events.recv_timeout(Duration::from_millis(100)) {
            e.handle_event(ev, &mut |ev| out.push(ev));
        }
    }
    std::thread::sleep(Duration::from_millis(50));
    while let Ok(ev) = events.try_recv() {
        e.handle_event(ev, &mut |ev| out.push(ev));
    }
    assert!(e.searching(), "held until stop: {out:?}");
    assert!(!out.iter().any(|ev| matches!(ev, EngineEvent::BestMove(_))), "{out:?}");
    e.stop(&mut |ev| out.push(ev));
    out.extend(finish(&mut e));
    assert_eq!(out.iter().filter(|ev| matches!(ev, EngineEvent::BestMove(_))).count(), 1, "{out:?}");
}

#[test]
fn an_abandoned_search_says_nothing_more() {
    let mut e = Engine::new(Settings::for_tests()).expect("starts");
    let mut out = Vec::new();
    e.go(Limits { infinite: true, ..Limits::default() }, &mut |ev| out.push(ev)).expect("starts");
    e.abandon();
    let after = finish(&mut e);
    assert!(after.is_empty(), "{after:?}");
    assert!(Position::startpos().is_legal(best_of(&go(&mut e, depth(1)))), "the engine plays on");
}

#[test]
fn searchmoves_restrict_the_answer() {
    let mut e = Engine::new(Settings::for_tests()).expect("starts");
    let edge = Position::startpos().parse_usi_move("1g1f").expect("legal");
    let events = go(&mut e, Limits { searchmoves: vec![edge], ..depth(3) });
    assert_eq!(best_of(&events), edge);
}

#[test]
fn the_book_answers_before_a_search_but_not_for_analysis() {
    let book = BookSettings {
        source: BookSource::Builtin,
        enabled: true,
        last_move_number: 32,
        pick: BookPick::Best,
        ignore_percent: 0,
    };
    let mut e = Engine::new(Settings { book, ..Settings::for_tests() }).expect("starts");
    assert!(e.prepare().is_empty(), "the built-in book loads");
    let events = go(&mut e, depth(1));
    assert!(
        matches!(events[..], [EngineEvent::BookMove(ref m)] if Position::startpos().is_legal(m.chosen.mv)),
        "{events:?}"
    );
    let clock = Clock { byoyomi: 100, ..Clock::default() };
    assert!(matches!(go(&mut e, Limits { clock: Some(clock), ..Limits::default() })[..], [EngineEvent::BookMove(_)]));
    let mut analysis = Vec::new();
    e.go(Limits { infinite: true, ..depth(1) }, &mut |ev| analysis.push(ev)).expect("starts");
    assert!(analysis.is_empty(), "no book move for analysis: {analysis:?}");
    e.stop(&mut |ev| analysis.push(ev));
    analysis.extend(finish(&mut e));
    assert!(matches!(analysis[..], [.., EngineEvent::BestMove(_)]), "searched: {analysis:?}");
}

#[test]
fn a_mate_search_answers_with_the_mate() {
    let mut e = Engine::new(Settings::for_tests()).expect("starts");
    e.set_position(Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1").expect("valid"));
    e.go_mate(Some(Duration::from_secs(60))).expect("starts");
    let events = finish(&mut e);
    match &events[..] {
        [EngineEvent::Mate(MateResult::Mate(line), stats)] => {
            assert_eq!(line.iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["G*5b"]);
            assert!(stats.nodes > 0);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_new_game_clears_the_tables_without_waiting_for_it() {
    // GUIs send `usinewgame` then `position` and `go` at once, and their clock runs from the
    // `go`: clearing a large table before reading it made the first search of a game late.
    let mut e = Engine::new(Settings::for_tests()).expect("starts");
    e.new_game();
    let answer = e.events().recv_timeout(Duration::from_secs(60));
    assert!(matches!(answer, Ok(SearchEvent::Ready)), "the clear answers after new_game returned: {answer:?}");
    e.handle_event(SearchEvent::Ready, &mut |ev| panic!("{ev:?}"));
    // Jobs sent without waiting are answered in order: the next go still works, and a resize
    // waits for its own answer, not the clear's.
    e.new_game();
    let events = go(&mut e, depth(2));
    assert!(Position::startpos().is_legal(best_of(&events)));
    assert_eq!(e.set_hash(2), None, "2 MiB granted");
}
