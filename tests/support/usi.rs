//! Driving the built `hisha` binary over pipes: a USI session line by line ([`Engine`]), or a
//! whole piped input to the end ([`run_piped`]).

use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `hisha` process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far.
    pub transcript: Vec<String>,
}

impl Engine {
    /// Starts `hisha` with `args`.
    pub fn start(args: &[&str]) -> Engine {
        let mut cmd = super::hisha_command();
        cmd.args(args);
        Engine::spawn(cmd)
    }

    /// Starts `cmd`, a hisha binary (this build's, or the Windows one under Wine), its stderr
    /// discarded.
    pub fn spawn(mut cmd: Command) -> Engine {
        let mut child =
            cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("hisha starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines: rx, transcript: Vec::new() }
    }

    /// Sends raw bytes.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write");
        stdin.flush().expect("flush");
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Closes stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` after `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.transcript.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one starts with `prefix`; returns all lines read (the match last).
    pub fn until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) => {
                    let done = l.starts_with(prefix);
                    got.push(l);
                    if done {
                        return got;
                    }
                }
                None => panic!("no {prefix:?} within {timeout:?}; got {got:#?}"),
            }
        }
    }

    /// Lines that arrive within `wait` (for checking that nothing is printed).
    pub fn drain(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut got = Vec::new();
        while let Some(l) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            got.push(l);
        }
        got
    }

    /// `usi` … `usiok` and `isready` … `readyok`.
    /// Ponders on `position startpos moves 7g7f 3c3d` (byoyomi 500 ms): no `bestmove` comes while
    /// pondering, and after `ponderhit` one comes within 700 ms.
    pub fn ponder_then_ponderhit(&mut self) {
        self.send("position startpos moves 7g7f 3c3d");
        self.send("go ponder btime 0 wtime 0 byoyomi 500");
        let early = self.drain(Duration::from_millis(700));
        assert!(!early.iter().any(|l| l.starts_with("bestmove")), "bestmove while pondering");
        self.send("ponderhit");
        let t = Instant::now();
        self.until("bestmove", Duration::from_secs(5));
        assert!(t.elapsed() < Duration::from_millis(700), "ponderhit took {:?}", t.elapsed());
    }

    pub fn handshake(&mut self) {
        self.send("usi");
        self.until("usiok", Duration::from_secs(5));
        self.send("isready");
        self.until("readyok", Duration::from_secs(10));
    }

    /// Waits for the process to exit and returns its exit code.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<i32> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move of a `bestmove` line.
pub fn bestmove_of(line: &str) -> String {
    line.split_whitespace().nth(1).unwrap_or("").to_string()
}

/// The node count of an `info` line, if it has one.
pub fn nodes_of(line: &str) -> Option<u64> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.windows(2).find(|w| w[0] == "nodes").and_then(|w| w[1].parse().ok())
}

/// What a `hisha` run on piped input printed, and how it ended.
pub struct Piped {
    /// The lines on stdout.
    pub stdout: Vec<String>,
    /// Everything on stderr.
    pub stderr: String,
    /// The exit code (`None`: killed by a signal).
    pub code: Option<i32>,
}

/// Runs `hisha` with `args`, writes `input` to its stdin and closes it (end of input), then waits
/// for it to exit. Panics (after killing it) if it has not exited within `timeout`. `RUST_LOG` is
/// removed so that stderr holds only what hisha prints by default.
pub fn run_piped(args: &[&str], input: &str, timeout: Duration) -> Piped {
    let mut child = super::hisha_command()
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("hisha starts");
    let read_all = |mut r: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = r.read_to_string(&mut text);
            text
        })
    };
    let stdout = read_all(Box::new(child.stdout.take().expect("piped stdout")));
    let stderr = read_all(Box::new(child.stderr.take().expect("piped stderr")));
    let mut stdin = child.stdin.take().expect("piped stdin");
    stdin.write_all(input.as_bytes()).expect("write");
    drop(stdin);
    let deadline = Instant::now() + timeout;
    let status = loop {
        if let Ok(Some(status)) = child.try_wait() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("hisha did not exit within {timeout:?} after end of input {input:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Piped {
        stdout: stdout.join().expect("stdout reader").lines().map(str::to_string).collect(),
        stderr: stderr.join().expect("stderr reader"),
        code: status.code(),
    }
}
