//! Ctrl-C during a match: the first press stops new games (the running ones finish), the second
//! kills the engines and exits at once with status 130, after the record being written, if any,
//! is complete, and after the results as of the last finished game.

use crate::arena::events::{MatchEvent, MatchObserver};
use crate::client::process::EngineRegistry;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// The flags the main thread and the Ctrl-C handler share.
#[derive(Default)]
pub(super) struct Interrupt {
    /// No new games: set by Ctrl-C, the SPRT or `--max-crashes`.
    pub stop: AtomicBool,
    /// Ctrl-C was pressed.
    pub interrupted: AtomicBool,
    /// Held while a finished game is written and counted, so that a second Ctrl-C leaves no half
    /// record and tells the results of exactly the games written.
    pub writing: Mutex<()>,
    /// The results block as of the last finished game (empty before it), told on a second Ctrl-C.
    results: Mutex<String>,
}

impl Interrupt {
    /// Runs `write` so that a second Ctrl-C waits for it to end.
    pub(super) fn while_writing<T>(&self, write: impl FnOnce() -> T) -> T {
        let _lock = self.writing.lock().unwrap_or_else(PoisonError::into_inner);
        write()
    }

    /// Keeps a copy of `block`, the results after the game just finished, for a second Ctrl-C.
    pub(super) fn keep_results(&self, block: &str) {
        let mut kept = self.results.lock().unwrap_or_else(PoisonError::into_inner);
        kept.clear();
        kept.push_str(block);
    }

    /// The results block kept last, if a game has finished.
    fn kept_results(&self) -> Option<String> {
        Some(self.results.lock().unwrap_or_else(PoisonError::into_inner).clone()).filter(|b| !b.is_empty())
    }
}

/// Installs the Ctrl-C handler, which tells `events` of each press, and on the second the results
/// as of the last finished game (a warning in the log when it cannot be installed).
pub(super) fn install(flags: &Arc<Interrupt>, registry: &EngineRegistry, events: &Arc<dyn MatchObserver>) {
    let presses = AtomicUsize::new(0);
    let (flags, registry, events) = (Arc::clone(flags), registry.clone(), Arc::clone(events));
    let installed = ctrlc::set_handler(move || {
        if presses.fetch_add(1, Ordering::SeqCst) == 0 {
            flags.interrupted.store(true, Ordering::SeqCst);
            flags.stop.store(true, Ordering::SeqCst);
            events.event(MatchEvent::Interrupted { again: false });
            return;
        }
        flags.while_writing(|| {
            registry.kill_all();
            if let Some(block) = flags.kept_results() {
                events.event(MatchEvent::Results(&block));
            }
            events.event(MatchEvent::Interrupted { again: true });
            std::process::exit(130);
        })
    });
    if let Err(e) = installed {
        log::warn!("cannot handle Ctrl-C: {e}");
    }
}
