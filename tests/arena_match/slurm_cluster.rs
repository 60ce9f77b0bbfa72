//! A private single-node Slurm for the tests: MUNGE with its own key and socket, `slurmctld` and
//! `slurmd` with their own `slurm.conf`, state, spool and log folders, all under one temporary
//! folder, listening on loopback only (free ports), no accounting, no cgroups
//! (`proctrack/linuxproc`, `task/none`: the node is this machine's processes). The daemons run in
//! the foreground as children of the test and are stopped by their PIDs when the [`Cluster`] is
//! dropped, on a panic too, after the jobs submitted through it are cancelled.
//!
//! Debian's `slurm-wlm` and `munge` packages provide the programs (Slurm 22.05.8 and MUNGE
//! 0.5.15 on Debian 12, where this was written); [`Programs::find`] looks for them on PATH and in
//! `/usr/sbin` and `/usr/bin`.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// What a user installs to have the programs.
pub const HOW: &str = "apt-get install slurm-wlm munge";

/// How long a daemon may take to be ready, and a stopped one to exit.
const DAEMON_WAIT: Duration = Duration::from_secs(20);

/// The states of a job that ended without completing (Slurm's `squeue` manual, JOB STATE CODES).
const FAILED: [&str; 8] =
    ["BOOT_FAIL", "CANCELLED", "DEADLINE", "FAILED", "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED", "TIMEOUT"];

/// The programs of Slurm and MUNGE the cluster needs.
pub struct Programs {
    mungekey: PathBuf,
    munged: PathBuf,
    slurmctld: PathBuf,
    slurmd: PathBuf,
    sbatch: PathBuf,
    scontrol: PathBuf,
    scancel: PathBuf,
}

/// `name` on PATH, else in `/usr/sbin` or `/usr/bin` (daemons are not on a user's PATH).
fn program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/usr/bin")])
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

impl Programs {
    /// Every program, or `None` when one is missing.
    pub fn find() -> Option<Programs> {
        Some(Programs {
            mungekey: program("mungekey")?,
            munged: program("munged")?,
            slurmctld: program("slurmctld")?,
            slurmd: program("slurmd")?,
            sbatch: program("sbatch")?,
            scontrol: program("scontrol")?,
            scancel: program("scancel")?,
        })
    }
}

/// A running private Slurm; dropping it cancels its jobs and stops its daemons.
pub struct Cluster {
    programs: Programs,
    /// The temporary folder everything lives in.
    dir: PathBuf,
    /// Its `slurm.conf`.
    conf: PathBuf,
    /// The daemons, in the order started.
    daemons: Vec<(&'static str, Child)>,
    /// The jobs submitted.
    jobs: Vec<String>,
}

/// A TCP port free on loopback now, and another one.
fn two_free_ports() -> (u16, u16) {
    let bind = || std::net::TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
    let (a, b) = (bind(), bind());
    let port = |l: &std::net::TcpListener| l.local_addr().expect("local address").port();
    (port(&a), port(&b))
}

/// The name of the user running the tests (Slurm's own user in the private cluster).
fn user_name() -> String {
    let out = Command::new("id").arg("-un").output().expect("id runs");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The `slurm.conf` of a cluster in `dir`: one node, `localhost`, of 2 CPUs (whatever this machine
/// has: `config_overrides`), Slurm's own ports `ports`, the scheduler woken every second.
fn slurm_conf(dir: &Path, ports: (u16, u16)) -> String {
    let d = dir.display();
    let user = user_name();
    format!(
        "ClusterName=hisha-test\n\
         SlurmctldHost=localhost(127.0.0.1)\n\
         SlurmctldPort={ctld}\n\
         SlurmdPort={slurmd}\n\
         CommunicationParameters=NoCtldInAddrAny,NoInAddrAny\n\
         SlurmUser={user}\n\
         SlurmdUser={user}\n\
         AuthType=auth/munge\n\
         CredType=cred/munge\n\
         AuthInfo=socket={d}/munge/socket\n\
         StateSaveLocation={d}/state\n\
         SlurmdSpoolDir={d}/spool\n\
         SlurmctldPidFile={d}/slurmctld.pid\n\
         SlurmdPidFile={d}/slurmd.pid\n\
         SlurmctldLogFile={d}/log/slurmctld.log\n\
         SlurmdLogFile={d}/log/slurmd.log\n\
         ProctrackType=proctrack/linuxproc\n\
         TaskPlugin=task/none\n\
         JobAcctGatherType=jobacct_gather/none\n\
         AccountingStorageType=accounting_storage/none\n\
         JobCompType=jobcomp/none\n\
         MpiDefault=none\n\
         MailProg=/bin/true\n\
         SchedulerType=sched/builtin\n\
         SchedulerParameters=sched_interval=1\n\
         SelectType=select/cons_tres\n\
         SelectTypeParameters=CR_CPU\n\
         ReturnToService=2\n\
         SlurmdParameters=config_overrides\n\
         NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN\n\
         PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP\n",
        ctld = ports.0,
        slurmd = ports.1,
    )
}

/// Waits until `ready` or [`DAEMON_WAIT`] has passed; whether it became ready.
fn wait_until(mut ready: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < DAEMON_WAIT {
        if ready() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

impl Cluster {
    /// Starts MUNGE, `slurmctld` and `slurmd` in `dir` (a fresh folder) and waits until the node
    /// is idle; panics, with the daemons' logs, when one does not come up.
    pub fn start(programs: Programs, dir: &Path) -> Cluster {
        for sub in ["munge", "state", "spool", "log"] {
            std::fs::create_dir_all(dir.join(sub)).expect("create the cluster's folders");
        }
        let conf = dir.join("slurm.conf");
        std::fs::write(&conf, slurm_conf(dir, two_free_ports())).expect("write slurm.conf");
        let mut cluster = Cluster { programs, dir: dir.to_path_buf(), conf, daemons: Vec::new(), jobs: Vec::new() };
        let munge = dir.join("munge");
        let key = munge.join("munge.key");
        let made = Command::new(&cluster.programs.mungekey).arg("--create").arg("--keyfile").arg(&key).output();
        assert!(made.is_ok_and(|o| o.status.success()), "mungekey --create --keyfile {} failed", key.display());
        let mut munged = Command::new(&cluster.programs.munged);
        munged.arg("--foreground").arg(format!("--socket={}", munge.join("socket").display()));
        for (flag, file) in [("--key-file", "munge.key"), ("--pid-file", "munged.pid"), ("--seed-file", "seed")] {
            munged.arg(format!("{flag}={}", munge.join(file).display()));
        }
        cluster.spawn("munged", munged);
        let socket = munge.join("socket");
        cluster.assert_ready("munged", || socket.exists());
        let mut slurmctld = Command::new(&cluster.programs.slurmctld);
        slurmctld.arg("-D").arg("-f").arg(&cluster.conf);
        cluster.spawn("slurmctld", slurmctld);
        cluster.assert_ready("slurmctld", || cluster.scontrol(&["ping"]).contains("is UP"));
        let mut slurmd = Command::new(&cluster.programs.slurmd);
        slurmd.arg("-D").arg("-f").arg(&cluster.conf).args(["-N", "localhost"]);
        cluster.spawn("slurmd", slurmd);
        cluster
            .assert_ready("slurmd", || cluster.scontrol(&["-o", "show", "node", "localhost"]).contains("State=IDLE"));
        cluster
    }

    /// Starts a daemon, its output in `log/NAME.out`.
    fn spawn(&mut self, name: &'static str, mut command: Command) {
        let log = std::fs::File::create(self.dir.join("log").join(format!("{name}.out"))).expect("create a log");
        let err = log.try_clone().expect("clone a log");
        let child = self.client(&mut command).stdin(Stdio::null()).stdout(log).stderr(err).spawn();
        match child {
            Ok(child) => self.daemons.push((name, child)),
            Err(e) => panic!("{name} does not start: {e}"),
        }
    }

    /// Panics, with the logs, unless `ready` becomes true in time.
    fn assert_ready(&self, name: &str, ready: impl FnMut() -> bool) {
        assert!(wait_until(ready), "{name} did not come up in {DAEMON_WAIT:?}\n{}", self.logs());
    }

    /// `command` as a client of this cluster: its `slurm.conf`, and none of the variables of a
    /// Slurm job the tests may run in.
    fn client<'a>(&self, command: &'a mut Command) -> &'a mut Command {
        for (name, _) in std::env::vars_os() {
            let name = name.to_string_lossy();
            if name.starts_with("SLURM_") || name.starts_with("SBATCH_") {
                command.env_remove(&*name);
            }
        }
        command.env("SLURM_CONF", &self.conf)
    }

    /// `sbatch --parsable ARGS…` with `vars` in the job's environment (and the test's): the job
    /// id.
    pub fn sbatch(&mut self, args: &[&str], vars: &[(&str, &str)]) -> String {
        let mut command = Command::new(&self.programs.sbatch);
        self.client(&mut command).arg("--parsable").args(args).envs(vars.iter().copied());
        let out = command.output().expect("sbatch runs");
        assert!(out.status.success(), "sbatch {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        // `--parsable` prints `ID` or `ID;CLUSTER`.
        let id = text.trim().split(';').next().unwrap_or_default().to_string();
        assert!(!id.is_empty() && id.chars().all(|c| c.is_ascii_digit()), "sbatch printed {text:?}");
        self.jobs.push(id.clone());
        id
    }

    /// The state and reason of every job submitted (each task of an array), as `scontrol show
    /// job` tells them.
    fn job_states(&self) -> Vec<(String, String)> {
        let field =
            |line: &str, name: &str| line.split(' ').find_map(|f| f.strip_prefix(name)).unwrap_or("").to_string();
        self.jobs
            .iter()
            .flat_map(|id| {
                let text = self.scontrol(&["-o", "show", "job", id]);
                text.lines().map(|l| (field(l, "JobState="), field(l, "Reason="))).collect::<Vec<_>>()
            })
            .collect()
    }

    /// Waits until every job submitted (each task of an array) has completed; panics, with the
    /// logs, when one fails, is cancelled, waits on a dependency that failed or `timeout` passes.
    pub fn wait_for_jobs(&self, timeout: Duration) {
        let start = Instant::now();
        loop {
            let states = self.job_states();
            if !states.is_empty() && states.iter().all(|(state, _)| state == "COMPLETED") {
                return;
            }
            let failed = states
                .iter()
                .any(|(state, reason)| FAILED.contains(&state.as_str()) || reason == "DependencyNeverSatisfied");
            let waited = start.elapsed();
            assert!(!failed && waited < timeout, "jobs {states:?} after {waited:?}\n{}", self.logs());
            std::thread::sleep(Duration::from_millis(250));
        }
    }

    /// `scontrol ARGS…`: its standard output (empty when it fails).
    fn scontrol(&self, args: &[&str]) -> String {
        let mut command = Command::new(&self.programs.scontrol);
        let out: Option<Output> = self.client(&mut command).args(args).stdin(Stdio::null()).output().ok();
        out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default()
    }

    /// The daemons' logs and the jobs' output files (`*.out` in the cluster's folder), for a
    /// failure's message.
    pub fn logs(&self) -> String {
        let mut files: Vec<PathBuf> = [self.dir.join("log"), self.dir.clone()]
            .iter()
            .filter_map(|d| std::fs::read_dir(d).ok())
            .flat_map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())))
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "out" || x == "log"))
            .collect();
        files.sort();
        let tail = |p: &Path| {
            let text = std::fs::read_to_string(p).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            lines[lines.len().saturating_sub(30)..].join("\n")
        };
        files.iter().map(|p| format!("--- {}\n{}\n", p.display(), tail(p))).collect()
    }
}

impl Drop for Cluster {
    /// Cancels the jobs, then stops the daemons by their PIDs, the last started first: SIGTERM,
    /// then SIGKILL to one that has not exited in [`DAEMON_WAIT`].
    fn drop(&mut self) {
        if !self.jobs.is_empty() {
            let mut scancel = Command::new(&self.programs.scancel);
            let _ = self.client(&mut scancel).args(&self.jobs).stdout(Stdio::null()).stderr(Stdio::null()).status();
            // slurmd stops the cancelled jobs' processes; it must be running for that.
            wait_until(|| {
                self.job_states()
                    .iter()
                    .all(|(state, _)| !["CONFIGURING", "RUNNING", "COMPLETING"].contains(&state.as_str()))
            });
        }
        while let Some((_, mut child)) = self.daemons.pop() {
            let pid = child.id().to_string();
            let _ = Command::new("kill").args(["-TERM", &pid]).stderr(Stdio::null()).status();
            if !wait_until(|| child.try_wait().is_ok_and(|s| s.is_some())) {
                let _ = child.kill();
            }
            let _ = child.wait();
        }
    }
}
