//! The check before the first game: each engine is started once (both at the same time) and
//! completes `usi` … `usiok`, its options and `isready` … `readyok`, then quits. An engine that
//! fails stops the match before any file is written, with a message that names it and quotes the
//! end of its stderr. Options it does not list, and `info string` answers containing "error" to
//! them, are reported as warnings on stderr before the first game.

use super::error::{HandshakeFailure, MatchError};
use super::events::{MatchEvent, MatchObserver};
use crate::client::config::EngineConfig;
use crate::client::process::{EngineProcess, EngineRegistry, Timeouts};
use crossbeam_channel::unbounded;
use std::time::{Duration, Instant};

/// Lines of an engine's stderr quoted when its first handshake fails.
pub(crate) const STDERR_TAIL: usize = 5;

/// Options that GUIs send although engines need not list them (usi.md §4).
const ALWAYS_ACCEPTED: [&str; 2] = ["USI_Hash", "USI_Ponder"];

/// The transcript lines of the check, for `--log` (`[NAME (check)] > usi`, …).
pub(crate) type Transcript = Vec<(Instant, String)>;

/// What the check found out about one engine.
struct Checked {
    /// The error of the handshake, if it failed.
    failure: Option<String>,
    /// Problems with its options.
    warnings: Vec<String>,
    transcript: Transcript,
}

/// The transcript name of an engine during the check.
fn check_name(conf: &EngineConfig) -> String {
    format!("{} (check)", conf.name)
}

/// The problems with `conf`'s options, from what the engine answered.
fn option_problems(conf: &EngineConfig, listed: &[String], replies: &[String]) -> Vec<String> {
    let mut problems = Vec::new();
    let known =
        |k: &str| listed.iter().chain(ALWAYS_ACCEPTED.map(String::from).iter()).any(|l| l.eq_ignore_ascii_case(k));
    for (k, v) in conf.options.iter().filter(|(k, _)| !known(k)) {
        let list = if listed.is_empty() { "none".to_string() } else { listed.join(", ") };
        problems.push(format!("option.{k}={v}: {} does not list an option {k} (it lists: {list})", conf.name));
    }
    for r in replies.iter().filter(|r| r.to_ascii_lowercase().contains("error")) {
        problems.push(format!("{} answered its options with `info string {r}`", conf.name));
    }
    problems
}

/// Starts `conf` once, completes the handshake and quits it.
fn check_one(conf: &EngineConfig, timeout: Duration) -> Checked {
    let (tx, rx) = unbounded();
    let mut named = conf.clone();
    named.name = check_name(conf);
    let registry = EngineRegistry::default();
    let timeouts = Timeouts { usiok: timeout, readyok: timeout };
    let (failure, warnings) = match EngineProcess::start(&named, timeouts, Some(tx), &registry) {
        Ok(p) => {
            let warnings = option_problems(conf, &p.listed_options, &p.option_replies);
            p.quit(Duration::from_millis(500));
            (None, warnings)
        }
        Err(e) => (Some(e.to_string()), Vec::new()),
    };
    // The process is gone: its stderr thread, the last sender, ends at the end of the pipe.
    let deadline = Instant::now() + Duration::from_secs(2);
    let mut transcript = Vec::new();
    while let Ok(line) = rx.recv_deadline(deadline) {
        transcript.push(line);
    }
    Checked { failure, warnings, transcript }
}

/// The last [`STDERR_TAIL`] stderr lines of the engine named `name` in `transcript`.
fn stderr_tail(transcript: &Transcript, name: &str) -> Vec<String> {
    let prefix = format!("[{name}] stderr: ");
    let lines: Vec<String> = transcript.iter().filter_map(|(_, l)| l.strip_prefix(&prefix)).map(String::from).collect();
    lines[lines.len().saturating_sub(STDERR_TAIL)..].to_vec()
}

/// Checks every engine at once (`timeouts[i]` for `confs[i]`); on success, warns `events` of the problems
/// with their options and returns the transcripts of the check, for the log.
pub(crate) fn check(
    confs: &[EngineConfig],
    timeouts: &[Duration],
    events: &dyn MatchObserver,
) -> Result<Transcript, MatchError> {
    let results: Vec<Checked> = std::thread::scope(|s| {
        let handles: Vec<_> = confs.iter().zip(timeouts).map(|(c, &t)| s.spawn(move || check_one(c, t))).collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| Checked {
                    failure: Some("the check panicked".into()),
                    warnings: Vec::new(),
                    transcript: Vec::new(),
                })
            })
            .collect()
    });
    let failures: Vec<HandshakeFailure> = confs
        .iter()
        .zip(&results)
        .filter_map(|(c, r)| {
            let why = r.failure.clone()?;
            Some(HandshakeFailure {
                engine: c.name.clone(),
                why,
                stderr_tail: stderr_tail(&r.transcript, &check_name(c)),
            })
        })
        .collect();
    if !failures.is_empty() {
        return Err(MatchError::Handshake(failures));
    }
    for w in results.iter().flat_map(|r| &r.warnings) {
        events.event(MatchEvent::Notice(&format!("warning: {w}")));
    }
    Ok(results.into_iter().flat_map(|r| r.transcript).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conf(options: &[(&str, &str)]) -> EngineConfig {
        let mut c = EngineConfig::hisha();
        c.name = "e".into();
        c.options = options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        c
    }

    #[test]
    fn options_the_engine_does_not_list_or_rejects_are_problems() {
        let listed = ["Threads".to_string(), "MultiPV".to_string()];
        let c = conf(&[("threads", "2"), ("USI_Hash", "64"), ("Bogus", "1")]);
        let problems = option_problems(&c, &listed, &["error: Threads: 2 is out of range".into(), "hello".into()]);
        assert_eq!(
            problems,
            [
                "option.Bogus=1: e does not list an option Bogus (it lists: Threads, MultiPV)",
                "e answered its options with `info string error: Threads: 2 is out of range`"
            ],
            "names compare without case; USI_Hash needs no listing; only replies with \"error\" count"
        );
        assert!(option_problems(&conf(&[("Threads", "1")]), &listed, &[]).is_empty());
    }

    #[test]
    fn a_failed_handshake_quotes_the_last_lines_of_stderr() {
        let t: Transcript = (1..=8)
            .map(|i| (Instant::now(), format!("[e (check)] stderr: line {i}")))
            .chain([(Instant::now(), "[e (check)] > usi".to_string())])
            .collect();
        let tail = stderr_tail(&t, "e (check)");
        assert_eq!(tail, ["line 4", "line 5", "line 6", "line 7", "line 8"]);
        let failure = |why: &str, stderr_tail: Vec<String>| {
            HandshakeFailure { engine: "e".into(), why: why.into(), stderr_tail }.to_string()
        };
        let m = failure("the engine exited", tail);
        assert!(m.starts_with("engine e failed its first handshake (usi, usiok, isready, readyok): the engine exited"));
        assert!(m.contains("the end of its stderr:\n    line 4\n") && !m.contains("line 3"), "{m}");
        assert!(m.ends_with("    line 8\nNo game was played and no file was written."), "{m}");
        assert!(failure("x", Vec::new()).contains("it wrote nothing on stderr"));
    }
}
