//! One engine as a child process: a writer (its stdin), a reader thread turning its stdout into a
//! channel of lines, a thread draining its stderr into the log (under the current game's name),
//! the USI handshake with timeouts, and a kill when dropped. Engines run in their own process
//! group, so a Ctrl-C meant for the runner does not kill them mid-game; every engine is listed in
//! an [`EngineRegistry`], so that a second Ctrl-C can kill them all before the runner exits.

use super::config::EngineConfig;
use crate::usi::command::UsiCommand;
use crate::usi::response::UsiResponse;
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, Instant};

/// What can go wrong with an engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The executable could not be started.
    #[error("cannot start {0}: {1}")]
    Spawn(String, std::io::Error),
    /// Writing to the engine failed (it has gone).
    #[error("cannot write to the engine: {0}")]
    Io(std::io::Error),
    /// No answer in time.
    #[error("no {0} within {1} ms")]
    Timeout(&'static str, u64),
    /// The engine's output ended (it exited or crashed).
    #[error("the engine exited")]
    Exited,
}

/// Where transcript lines go, with the moment each line was sent or read (a logger thread writes
/// them to `--log`).
pub type LogSink = Option<Sender<(Instant, String)>>;

/// A line from the engine and the moment it was read from the pipe.
type Line = (Instant, String);

/// Timeouts of the USI handshake.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// For `usiok` after `usi`.
    pub usiok: Duration,
    /// For `readyok` after `isready`.
    pub readyok: Duration,
}

/// The engine processes alive, so that they can be killed at once (second Ctrl-C).
#[derive(Clone, Default)]
pub struct EngineRegistry(Arc<Mutex<Vec<Weak<Mutex<Child>>>>>);

impl EngineRegistry {
    fn add(&self, child: &Arc<Mutex<Child>>) {
        let mut list = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        list.retain(|w| w.strong_count() > 0);
        list.push(Arc::downgrade(child));
    }

    /// Kills every engine still running.
    pub fn kill_all(&self) {
        let list = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        for child in list.iter().filter_map(Weak::upgrade) {
            let _ = child.lock().unwrap_or_else(PoisonError::into_inner).kill();
        }
    }
}

/// A running engine.
pub struct EngineProcess {
    /// The definition it was started from.
    pub config: EngineConfig,
    child: Arc<Mutex<Child>>,
    stdin: ChildStdin,
    lines: Receiver<Option<Line>>,
    log: LogSink,
    /// When the last line returned by [`EngineProcess::recv`] was read.
    last_read: Instant,
    /// Prefix for transcript and stderr lines (`game 12 black fairy-stockfish`).
    context: Arc<Mutex<String>>,
    /// How long `readyok` may take.
    ready_timeout: Duration,
    /// The option names the engine listed (`option name …`) before `usiok`.
    pub listed_options: Vec<String>,
    /// The `info string` lines the engine sent between the options and `readyok` (where engines
    /// report options they reject).
    pub option_replies: Vec<String>,
}

/// Reads lines from `r` until it ends, stamping each with the moment it was read, so that the time
/// of a `bestmove` does not include the wait for the game's thread to be scheduled.
fn spawn_reader<R: std::io::Read + Send + 'static>(r: R, tx: Sender<Option<Line>>) {
    std::thread::spawn(move || {
        let mut reader = BufReader::new(r);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match reader.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let at = Instant::now();
                    let line = String::from_utf8_lossy(&buf).trim_end_matches(['\r', '\n']).replace('\0', "");
                    if tx.send(Some((at, line))).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = tx.send(None);
    });
}

impl EngineProcess {
    /// Starts the engine and completes the handshake: `usi` … `usiok`, every option, `isready` …
    /// `readyok`, noting the options it lists and its `info string` answers to the options.
    pub fn start(
        config: &EngineConfig,
        timeouts: Timeouts,
        log: LogSink,
        registry: &EngineRegistry,
    ) -> Result<EngineProcess, EngineError> {
        let mut cmd = Command::new(&config.command);
        cmd.args(&config.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        if let Some(d) = &config.dir {
            cmd.current_dir(d);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn().map_err(|e| EngineError::Spawn(config.command.display().to_string(), e))?;
        let (Some(stdin), Some(stdout), Some(stderr)) = (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Exited);
        };
        let child = Arc::new(Mutex::new(child));
        registry.add(&child);
        let (tx, rx) = unbounded();
        spawn_reader(stdout, tx);
        // Engine stderr goes to the log only, under the name of the game being played.
        let (etx, erx) = unbounded();
        spawn_reader(stderr, etx);
        let context = Arc::new(Mutex::new(config.name.clone()));
        let (elog, econtext) = (log.clone(), Arc::clone(&context));
        std::thread::spawn(move || {
            for (at, line) in erx.iter().flatten() {
                if let Some(l) = &elog {
                    let prefix = econtext.lock().unwrap_or_else(PoisonError::into_inner).clone();
                    let _ = l.send((at, format!("[{prefix}] stderr: {line}")));
                }
            }
        });
        let mut p = EngineProcess {
            config: config.clone(),
            child,
            stdin,
            lines: rx,
            log,
            last_read: Instant::now(),
            context,
            ready_timeout: timeouts.readyok,
            listed_options: Vec::new(),
            option_replies: Vec::new(),
        };
        p.send(&UsiCommand::Usi)?;
        let before_usiok = p.wait_for(|r| matches!(r, UsiResponse::UsiOk), "usiok", timeouts.usiok)?;
        p.listed_options = before_usiok
            .into_iter()
            .filter_map(|r| match r {
                UsiResponse::Option { name, .. } => Some(name),
                _ => None,
            })
            .collect();
        for (k, v) in &config.options {
            p.send(&UsiCommand::SetOption { name: k.clone(), value: Some(v.clone()) })?;
        }
        p.send(&UsiCommand::IsReady)?;
        let before_readyok = p.wait_for(|r| matches!(r, UsiResponse::ReadyOk), "readyok", timeouts.readyok)?;
        p.option_replies = before_readyok
            .into_iter()
            .filter_map(|r| match r {
                UsiResponse::Info(i) => i.string,
                _ => None,
            })
            .collect();
        Ok(p)
    }

    /// Names the transcript and stderr lines from now on (`game 12 black fairy-stockfish`).
    pub fn set_context(&self, context: String) {
        *self.context.lock().unwrap_or_else(PoisonError::into_inner) = context;
    }

    fn log(&self, at: Instant, dir: char, line: &str) {
        if let Some(l) = &self.log {
            let prefix = self.context.lock().unwrap_or_else(PoisonError::into_inner).clone();
            let _ = l.send((at, format!("[{prefix}] {dir} {line}")));
        }
    }

    /// The engine's process id (to read its CPU time from `/proc`).
    pub fn id(&self) -> u32 {
        self.child().id()
    }

    /// When the last line returned by [`EngineProcess::recv`] was read from the engine's pipe.
    pub fn last_read(&self) -> Instant {
        self.last_read
    }

    fn child(&self) -> std::sync::MutexGuard<'_, Child> {
        self.child.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Sends a command.
    pub fn send(&mut self, cmd: &UsiCommand) -> Result<(), EngineError> {
        let text = cmd.to_string();
        self.log(Instant::now(), '>', &text);
        writeln!(self.stdin, "{text}").and_then(|_| self.stdin.flush()).map_err(EngineError::Io)
    }

    /// The next message, or an error at `deadline` or when the engine's output ends.
    pub fn recv(&mut self, deadline: Instant) -> Result<UsiResponse, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(Some((at, line))) => {
                self.log(at, '<', &line);
                self.last_read = at;
                Ok(line.parse().unwrap_or_else(|e| match e {}))
            }
            Ok(None) | Err(RecvTimeoutError::Disconnected) => Err(EngineError::Exited),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout("answer", left.as_millis() as u64)),
        }
    }

    /// Reads until a message `want` accepts; the messages read before it.
    fn wait_for(
        &mut self,
        want: impl Fn(&UsiResponse) -> bool,
        what: &'static str,
        timeout: Duration,
    ) -> Result<Vec<UsiResponse>, EngineError> {
        let deadline = Instant::now() + timeout;
        let mut before = Vec::new();
        loop {
            match self.recv(deadline) {
                Ok(r) if want(&r) => return Ok(before),
                Ok(r) => before.push(r),
                Err(EngineError::Timeout(..)) => {
                    return Err(EngineError::Timeout(what, timeout.as_millis() as u64));
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// `isready` … `readyok`.
    pub fn ready(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send(&UsiCommand::IsReady)?;
        self.wait_for(|r| matches!(r, UsiResponse::ReadyOk), "readyok", timeout).map(|_| ())
    }

    /// Prepares a new game as GUIs do: `isready` … `readyok`, then `usinewgame`.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.ready(self.ready_timeout)?;
        self.send(&UsiCommand::UsiNewGame)
    }

    /// Discards messages already waiting (a late `bestmove` from an earlier search).
    pub fn drain(&mut self) {
        while let Ok(Some((at, line))) = self.lines.try_recv() {
            self.log(at, '<', &line);
        }
    }

    /// Asks the engine to quit, then kills it if it does not exit within `grace`.
    pub fn quit(mut self, grace: Duration) {
        let _ = self.send(&UsiCommand::Quit);
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child().try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let mut child = self.child();
        if let Ok(None) = child.try_wait() {
            let _ = child.kill();
        }
        let _ = child.wait();
    }
}
