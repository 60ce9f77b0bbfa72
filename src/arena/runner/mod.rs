//! Running a match: worker threads that own their engine processes and play the scheduled games
//! ([`workers`]), and the main thread that writes every finished game at once (records, then the
//! state file), tells of it (`Finished game …`, the results; [`super::events`]), stops for the
//! SPRT and for `--max-crashes`, and handles Ctrl-C ([`interrupt`]). Before the first game the
//! engines pass their check ([`super::preflight`]); the first and last lines name the record
//! file.

mod interrupt;
mod watch;
mod workers;

use super::earlier;
use super::error::MatchError;
use super::events::{MatchEvent, MatchObserver};
use super::game::Rules;
use super::identity::MatchIdentity;
use super::merge;
use super::opening_use::OpeningUse;
use super::output::{Outputs, record_names, spawn_logger};
use super::preflight;
use super::report_html::{self, MatchPage};
use super::schedule::{self, Job};
use super::scoreboard::Scoreboard;
use super::settings::MatchSettings;
use super::state::{self, State};
use super::timestamp::now_text;
use crate::client::config::EngineConfig;
use crate::client::process::EngineRegistry;
use crate::record::Format;
use crossbeam_channel::unbounded;
use interrupt::Interrupt;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use watch::Watch;
use workers::{Done, Queue, Shared};

/// What a match is about to play, checked and ready: everything [`run`] needs after the checks.
struct Plan {
    confs: Vec<EngineConfig>,
    identity: MatchIdentity,
    rules: Rules,
    state_path: PathBuf,
    previous: State,
    jobs: Vec<Job>,
    /// How the openings are used, and whether the games replay.
    usage: OpeningUse,
}

/// Reads the settings and the earlier state; errors here are usage errors and nothing is
/// written. An engine whose executable does not exist fails here (a typo should not become a
/// match of forfeits); engines that start but misbehave are adjudicated game by game instead.
fn plan(settings: &MatchSettings, events: &dyn MatchObserver) -> Result<Plan, MatchError> {
    if settings.tournament.is_some() && settings.sprt.is_some() {
        return Err(MatchError::SprtInTournament);
    }
    let confs = schedule::engines(settings)?;
    if let Some(c) = confs.iter().find(|c| !c.command_found()) {
        return Err(MatchError::MissingCommand { engine: c.name.clone(), command: c.command.clone() });
    }
    if let Some(anchor) = settings.anchor.as_ref().filter(|a| confs.iter().all(|c| c.name != a.name)) {
        let names: Vec<&str> = confs.iter().map(|c| c.name.as_str()).collect();
        return Err(MatchError::UnknownAnchor(anchor.name.clone(), names.join(", ")));
    }
    let rules = Rules::from_settings(&settings.game);
    let state_path = state::path_for(&settings.out[0]);
    let openings = schedule::load_openings(settings)?;
    let identity = MatchIdentity::of(settings, &confs, &openings);
    let previous = earlier::previous_state(settings.resume, &state_path, &confs, &identity, events)?;
    let done: Vec<usize> = previous.games.iter().map(|g| g.number).collect();
    let jobs = schedule::schedule(settings, &confs, &openings, &done);
    let usage = schedule::opening_use(settings, &confs, openings.len());
    Ok(Plan { confs, identity, rules, state_path, previous, jobs, usage })
}

/// For a new match, moves the earlier state aside and warns of other engines' games in the
/// record files; tells that the games start, with the first line. That line, and the note on other
/// engines' games for the last line.
fn announce(settings: &MatchSettings, plan: &Plan, events: &dyn MatchObserver) -> Result<(String, String), MatchError> {
    let names: Vec<&str> = plan.confs.iter().map(|c| c.name.as_str()).collect();
    let other_note = if settings.resume {
        String::new()
    } else {
        earlier::keep_earlier_state(&plan.state_path, events)?;
        earlier::keep_earlier_games(&settings.out, settings.format, events)?;
        earlier::warn_of_other_games(&settings.out, settings.format, &names, events)
    };
    let each: Vec<String> =
        names.iter().zip(&plan.identity.time_controls).map(|(name, tc)| format!("{name} ({tc})")).collect();
    let what = match settings.tournament {
        None => format!("match {}", each.join(" vs ")),
        Some(kind) => format!("{kind} tournament of {}", each.join(", ")),
    };
    let heading = format!(
        "=== hisha {what}, {}, records in {}{other_note}{}",
        now_text(),
        record_names(&settings.out[0], settings.format, false),
        if settings.resume { " (resumed)" } else { "" }
    );
    events.event(MatchEvent::Started { heading: &heading, games: plan.jobs.len() });
    Ok((heading, other_note))
}

/// Games played at once: `--concurrency`, else the cores shared by the engines' threads.
fn concurrency(settings: &MatchSettings, confs: &[EngineConfig]) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    settings.concurrency.unwrap_or(cores / confs.iter().map(EngineConfig::threads).max().unwrap_or(1)).max(1)
}

/// Runs `hisha match` with `settings`: plays the match (or merges state files), telling `events`
/// what happens, and says why it did not complete, if it did not.
pub fn run(mut settings: MatchSettings, events: Arc<dyn MatchObserver>) -> Result<(), MatchError> {
    if settings.merge.is_empty() && settings.out.is_empty() {
        settings.out.push(PathBuf::from("games.psn"));
    }
    report_html::check_target(&settings)?;
    let unnamed = |o: &&PathBuf| settings.format.is_none() && o.to_str().and_then(Format::from_path).is_none();
    if let Some(out) = settings.out.iter().find(unnamed) {
        return Err(MatchError::OutFormat(out.clone()));
    }
    if !settings.merge.is_empty() {
        return Ok(merge::merge(&settings, &*events)?);
    }
    let plan = plan(&settings, &*events)?;
    let timeout = |c: &EngineConfig| settings.game.usi_timeout_of(c);
    let checked = preflight::check(&plan.confs, &plan.confs.iter().map(timeout).collect::<Vec<_>>(), &*events)?;
    let (heading, other_note) = announce(&settings, &plan, &*events)?;
    let (log, logger) = spawn_logger(&settings.log, heading)?;
    if let Some(l) = &log {
        for line in checked {
            let _ = l.send(line);
        }
    }
    if let Some(notice) = plan.usage.notice(schedule::games_per_pairing(&settings)) {
        events.event(MatchEvent::Notice(&notice));
        if let Some(l) = &log {
            let _ = l.send((std::time::Instant::now(), format!("hisha match: {notice}")));
        }
    }
    let names: Vec<String> = plan.confs.iter().map(|c| c.name.clone()).collect();
    let name_refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let outputs = Outputs::open(
        &settings.out,
        settings.format,
        (&plan.state_path, &plan.identity),
        &name_refs,
        settings.log.clone(),
    )?;
    let concurrency = concurrency(&settings, &plan.confs);
    let registry = EngineRegistry::default();
    let interrupt = Arc::new(Interrupt::default());
    interrupt::install(&interrupt, &registry, &events);
    let time_controls = plan.identity.time_controls.clone();
    let kind = (settings.tournament, settings.anchor.clone());
    let mut board = Scoreboard::new(&names, time_controls, kind, Some(plan.usage));
    let mut page = settings.report.as_deref().map(MatchPage::new);
    let mut earlier = match &mut page {
        Some(p) if !plan.previous.games.is_empty() => p.earlier_games(&plan.state_path, &plan.previous, &*events),
        _ => Default::default(),
    };
    // With the SPRT at a fixed budget, games that replay earlier ones (of a run without it) are
    // not counted.
    for g in plan.previous.games.iter().filter(|g| plan.usage.counts(g.number)) {
        board.add(g);
        if let Some(p) = &mut page {
            p.add(g, earlier.remove(&g.number), &board);
        }
    }
    let total = plan.jobs.len();
    let (job_tx, job_rx) = unbounded::<Job>();
    let mut queue = Queue::new(plan.jobs, job_tx);
    for _ in 0..concurrency {
        queue.feed(&interrupt.stop);
    }
    let (done_tx, done_rx) = unbounded::<Done>();
    let shared = Shared {
        confs: plan.confs.clone(),
        rules: plan.rules,
        usi_timeout: settings.game.usi_timeout,
        restart: settings.restart,
        log,
        registry,
    };
    let mut handles = Vec::new();
    for i in 0..concurrency.min(total) {
        let (rx, tx, sh) = (job_rx.clone(), done_tx.clone(), shared.clone());
        let h = std::thread::Builder::new()
            .name(format!("match-{i}"))
            .spawn(move || workers::worker(rx, tx, sh))
            .map_err(MatchError::Thread)?;
        handles.push(h);
    }
    drop((done_tx, shared));
    let mut watch = Watch::new(&settings, &plan.confs, outputs, (board, page), total, (&interrupt, &*events));
    for d in done_rx.iter() {
        for e in watch.finished(d) {
            queue.drop_engine(e);
        }
        queue.feed(&interrupt.stop);
    }
    events.event(MatchEvent::GamesOver);
    for h in handles {
        let _ = h.join();
    }
    logger.finish();
    let outs: Vec<String> = settings.out.iter().map(|p| record_names(p, settings.format, true)).collect();
    let ending = watch.end(concurrency, &format!("Records in {}{other_note}", outs.join(", ")));
    let (finished, dropped) = (ending.finished, ending.dropped);
    let unplayed = total.saturating_sub(finished);
    match ending.crashed {
        Some(limit) => Err(MatchError::Crashes { limit, finished, unplayed }),
        None if interrupt.interrupted.load(Ordering::SeqCst) => Err(MatchError::Interrupted { finished, unplayed }),
        None if !dropped.is_empty() => Err(MatchError::Dropped { dropped, finished, unplayed }),
        None => ending.page_error.map_or(Ok(()), |e| Err(e.into())),
    }
}
