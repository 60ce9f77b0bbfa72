//! Running a tuning run: after the checks (`plan`), the iterations in batches of `--concurrency`
//! (each a game pair, or two against an opponent), all of a batch drawn at the θ it starts from
//! (as fishtest's workers play a batch at the θ they were handed), and applied in iteration
//! order when the batch is over: each iteration's games appended to the record file, θ moved,
//! the state file rewritten. The first Ctrl-C lets the running iterations finish and stops; the
//! second kills the engines and exits at once (status 130), after the iteration being written,
//! if any, and after the values as of the last iteration written.

use super::events::{TuneEvent, TuneObserver};
use super::pairs::{PairDone, PairJob, Shared, worker};
use super::params::Param;
use super::plan::{Plan, plan};
use super::state::{self, TuneState};
use super::{TuneError, TuneSettings, page};
use crate::arena::game::Rules;
use crate::arena::timestamp::today;
use crate::arena::{CrashStreaks, FileError, spawn_logger};
use crate::client::config::EngineConfig;
use crate::client::process::EngineRegistry;
use crate::record::RecordWriter;
use crossbeam_channel::unbounded;
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// The flags the main thread and the Ctrl-C handler share.
struct Interrupt {
    /// Ctrl-C was pressed: no new pairs.
    stop: AtomicBool,
    /// The state as last written, held while an iteration is written, so that a second Ctrl-C
    /// leaves no half record and tells the values of exactly the iterations written.
    written: Mutex<TuneState>,
}

/// Installs the Ctrl-C handler, which tells `events` of each press, and on the second θ as of the
/// last iteration written, if there is one (a warning in the log when it cannot be installed).
fn install(flags: &Arc<Interrupt>, registry: &EngineRegistry, events: &Arc<dyn TuneObserver>) {
    let presses = AtomicUsize::new(0);
    let (flags, registry, events) = (Arc::clone(flags), registry.clone(), Arc::clone(events));
    let installed = ctrlc::set_handler(move || {
        if presses.fetch_add(1, Ordering::SeqCst) == 0 {
            flags.stop.store(true, Ordering::SeqCst);
            events.event(TuneEvent::Interrupted { again: false });
            return;
        }
        flags.while_writing(|written| {
            registry.kill_all();
            if written.done > 0 {
                events.event(TuneEvent::Values(written));
            }
            events.event(TuneEvent::Interrupted { again: true });
            std::process::exit(130);
        })
    });
    if let Err(e) = installed {
        log::warn!("cannot handle Ctrl-C: {e}");
    }
}

/// `Name=V, Name=V` for the values of one side.
fn values_text(params: &[Param], values: &[i64]) -> String {
    params.iter().zip(values).map(|(p, v)| format!("{}={v}", p.name)).collect::<Vec<_>>().join(", ")
}

/// Appends the games of `d` to `out`, with the run's tags; `names` are the sides' names, `log`
/// the transcripts' file.
fn write_games(
    out: &mut RecordWriter<BufWriter<File>>,
    d: PairDone,
    params: &[Param],
    names: &[String],
    log: Option<&Path>,
) -> std::io::Result<()> {
    let t = &d.job.trial;
    let options = [values_text(params, &t.plus), values_text(params, &t.minus)];
    let first = d.games.len() * t.k as usize + 1;
    for (i, g) in d.games.into_iter().enumerate() {
        let [black, white] = g.seats;
        let mut rec = g.outcome.record;
        let mut tags: Vec<(String, String)> = [
            ("Event", "hisha tune".to_string()),
            ("Date", today()),
            ("Round", (first + i).to_string()),
            ("Black", names[black].clone()),
            ("White", names[white].clone()),
            ("Opening", d.job.opening.name.clone()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        for (key, side) in [("BlackOptions", black), ("WhiteOptions", white)] {
            if let Some(o) = options.get(side) {
                tags.push((key.to_string(), o.clone()));
            }
        }
        if let Some(log) = log {
            tags.push(("Transcript".into(), format!("{}: game {}", log.display(), first + i)));
        }
        tags.append(&mut rec.tags);
        rec.tags = tags;
        out.write(&rec)?;
    }
    Ok(())
}

/// Runs `hisha tune` with `settings`, telling `events` what happens; why it did not complete, if
/// it did not.
pub fn run(settings: TuneSettings, events: Arc<dyn TuneObserver>) -> Result<(), TuneError> {
    let Plan { params, conf, opponent, gains, seed, tc, openings, mut state, mut records } = plan(&settings, &*events)?;
    let state_path = state::path_for(&settings.out);
    let mut names = vec![format!("{}+", conf.name), format!("{}-", conf.name)];
    names.extend(opponent.as_ref().map(|o| o.name.clone()));
    let against = opponent.as_ref().map_or(String::new(), |o| {
        let own = o.tc.filter(|&own| own != tc).map_or(String::new(), |own| format!(" at {own}"));
        format!(" against {}{own}", o.name)
    });
    let heading = format!(
        "=== hisha tune {} ({tc}){against}: {} over {} iterations (A {}, alpha {}, gamma {}), seed {seed}, records in {}{}",
        conf.name,
        params.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", "),
        gains.iterations,
        gains.a,
        gains.alpha,
        gains.gamma,
        settings.out.display(),
        if settings.resume { format!(" (resumed after {} iterations)", state.done) } else { String::new() }
    );
    events.event(TuneEvent::Started { heading: &heading, state: &state });
    let (log, logger) = spawn_logger(&settings.log, heading.clone())?;
    let registry = EngineRegistry::default();
    let interrupt = Arc::new(Interrupt { stop: AtomicBool::new(false), written: Mutex::new(state.clone()) });
    install(&interrupt, &registry, &events);
    let mut confs: Vec<EngineConfig> =
        names[..2].iter().map(|n| EngineConfig { name: n.clone(), ..conf.clone() }).collect();
    confs.extend(opponent);
    let shared = Shared {
        confs,
        names: params.iter().map(|p| p.name.clone()).collect(),
        rules: Rules::from_settings(&settings.game),
        tc,
        game: settings.game,
        registry,
        log,
    };
    let (job_tx, job_rx) = unbounded::<PairJob>();
    let (done_tx, done_rx) = unbounded::<PairDone>();
    let mut handles = Vec::new();
    let left = gains.iterations.saturating_sub(state.done);
    for i in 0..(settings.concurrency as u64).min(left) {
        let (rx, tx, sh) = (job_rx.clone(), done_tx.clone(), shared.clone());
        let h = std::thread::Builder::new()
            .name(format!("tune-{i}"))
            .spawn(move || worker(rx, tx, sh))
            .map_err(TuneError::Thread)?;
        handles.push(h);
    }
    drop((done_tx, shared));
    let mut told = None;
    let mut streaks = CrashStreaks::new(settings.max_crashes, 2);
    let engines = [conf.name.as_str(), names.get(2).map_or("", String::as_str)];
    let mut crashed = None;
    while state.done < gains.iterations && !interrupt.stop.load(Ordering::SeqCst) && crashed.is_none() {
        let trials = state.next_trials(settings.concurrency as u64);
        let size = trials.len();
        for trial in trials {
            let opening = openings[(trial.k % openings.len() as u64) as usize].clone();
            let _ = job_tx.send(PairJob { trial, opening });
        }
        let mut pairs: Vec<PairDone> = done_rx.iter().take(size).collect();
        if pairs.len() < size {
            break;
        }
        pairs.sort_by_key(|d| d.job.trial.k);
        for d in pairs {
            if crashed.is_some() {
                break; // the iterations after the one that reached --max-crashes are played again on --resume
            }
            let result = d.result();
            crashed = d.faults().find_map(|(e, faulty)| streaks.record(e, engines[e], faulty));
            interrupt.while_writing(|written| -> Result<(), TuneError> {
                let trial = d.job.trial.clone();
                let log = settings.log.as_deref();
                write_games(&mut records, d, &params, &names, log).map_err(FileError::at(&settings.out))?;
                state.apply(&trial, result);
                state::save(&state_path, &state)?;
                *written = state.clone();
                Ok(())
            })?;
            events.event(TuneEvent::Iteration { state: &state, result });
            if settings.report_every > 0 && state.done % settings.report_every == 0 {
                tell(&settings, &state, &*events);
                told = Some(state.done);
            }
        }
    }
    drop(job_tx);
    events.event(TuneEvent::GamesOver);
    for h in handles {
        let _ = h.join();
    }
    logger.finish();
    if told != Some(state.done) {
        tell(&settings, &state, &*events);
    }
    if let Some(limit) = crashed {
        return Err(TuneError::Crashes(limit));
    }
    if state.done < gains.iterations {
        return Err(TuneError::Interrupted { done: state.done, iterations: gains.iterations });
    }
    Ok(())
}

impl Interrupt {
    /// Runs `write` with the state as last written, so that a second Ctrl-C waits for it to end.
    fn while_writing<T>(&self, write: impl FnOnce(&mut TuneState) -> T) -> T {
        let mut written = self.written.lock().unwrap_or_else(PoisonError::into_inner);
        write(&mut written)
    }
}

/// Tells `events` θ and writes the `--report` page, if asked for (a page that cannot be written
/// is a notice: the run goes on).
fn tell(settings: &TuneSettings, state: &TuneState, events: &dyn TuneObserver) {
    events.event(TuneEvent::Values(state));
    let Some(path) = &settings.report else { return };
    match page::write(path, state) {
        Ok(()) => events.event(TuneEvent::PageWritten(path)),
        Err(e) => events.event(TuneEvent::Notice(&e.to_string())),
    }
}
