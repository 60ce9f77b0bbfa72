//! The state file of `hisha tune` (`RECORDS.state`, JSON, rewritten whole after every iteration
//! and renamed into place): what the run is (checked by `--resume`), how many iterations are
//! done, θ, the pair results so far and θ's trajectory, kept at most every [`samples`]-th
//! iteration so that the file stays small however long the run.

use super::params::Param;
use super::spsa::{self, Gains, Trial};
use crate::arena::FileError;
use crate::output_file::OutputFile;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What a run is: a run resumes only with the same.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TuneIdentity {
    /// The parameters, as the file gave them.
    pub params: Vec<Param>,
    /// The gain schedule.
    pub gains: Gains,
    /// The seed of the coins, the rounding and the order of the openings.
    pub seed: u64,
    /// The tuned engine: its name and command.
    pub engine: String,
    /// The time control.
    pub tc: String,
    /// The fixed opponent, `name (command)`; `None` when the engine plays itself (state files
    /// written before opponents existed have none).
    #[serde(default)]
    pub opponent: Option<String>,
}

impl TuneIdentity {
    /// What differs between `self` (the state file's) and `other` (this run's), in words; empty
    /// when nothing does.
    pub fn differences(&self, other: &TuneIdentity) -> Vec<String> {
        let mut out = Vec::new();
        let mut differ = |what: &str, a: String, b: String| {
            if a != b {
                out.push(format!("{what}: {a} there, {b} now"));
            }
        };
        let lines = |p: &[Param]| p.iter().map(Param::to_string).collect::<Vec<_>>().join("; ");
        differ("parameters", lines(&self.params), lines(&other.params));
        differ("iterations", self.gains.iterations.to_string(), other.gains.iterations.to_string());
        let consts = |g: &Gains| format!("A {} alpha {} gamma {}", g.a, g.alpha, g.gamma);
        differ("gains", consts(&self.gains), consts(&other.gains));
        differ("seed", self.seed.to_string(), other.seed.to_string());
        differ("engine", self.engine.clone(), other.engine.clone());
        differ("time control", self.tc.clone(), other.tc.clone());
        let opponent = |o: &Option<String>| o.clone().unwrap_or_else(|| "none (self-play)".into());
        differ("opponent", opponent(&self.opponent), opponent(&other.opponent));
        out
    }

    /// The games of an iteration: a colour-swapped pair, or against a fixed opponent one pair
    /// for each side.
    pub fn games_per_iteration(&self) -> u64 {
        if self.opponent.is_some() { 4 } else { 2 }
    }

    /// The largest iteration result: 2 (the θ + c·flip side won both games of its pair), or 4
    /// against an opponent (the θ + c·flip side won both of its games, the θ − c·flip side lost
    /// both of its).
    pub fn max_result(&self) -> i32 {
        self.games_per_iteration() as i32
    }
}

/// The iteration results of a run: how many iterations scored −max, …, 0, …, +max
/// ([`TuneIdentity::max_result`]), in that order.
pub type PairResults = Vec<u64>;

/// The state of a run.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TuneState {
    /// What the run is.
    pub identity: TuneIdentity,
    /// Iterations finished.
    pub done: u64,
    /// θ after them.
    pub theta: Vec<f64>,
    /// The pair results so far.
    pub results: PairResults,
    /// θ's trajectory: (iterations done, θ then), from (0, start).
    pub trajectory: Vec<(u64, Vec<f64>)>,
}

/// How often θ is kept in the trajectory: every `samples(n)` iterations of a run of `n`, so that
/// it holds at most about 200 points.
pub fn samples(iterations: u64) -> u64 {
    iterations.div_ceil(200).max(1)
}

impl TuneState {
    /// The state of a new run: nothing done, θ at the start values.
    pub fn new(identity: TuneIdentity) -> TuneState {
        let theta: Vec<f64> = identity.params.iter().map(|p| p.start as f64).collect();
        let results = vec![0; 2 * identity.max_result() as usize + 1];
        TuneState { trajectory: vec![(0, theta.clone())], identity, done: 0, theta, results }
    }

    /// The trials of the next `size` iterations (fewer at the end of the run), all drawn at θ
    /// now: a batch played at once.
    pub fn next_trials(&self, size: u64) -> Vec<Trial> {
        let id = &self.identity;
        let end = (self.done + size).min(id.gains.iterations);
        (self.done..end).map(|k| spsa::trial(&id.params, &self.theta, &id.gains, k, id.seed)).collect()
    }

    /// Counts the next iteration, played as `trial` with the result `result` (wins minus losses
    /// of the θ + c·flip side; against an opponent, less those of the θ − c·flip side): θ moves
    /// by it.
    pub fn apply(&mut self, trial: &Trial, result: i32) {
        spsa::update(&self.identity.params, &mut self.theta, trial, result);
        self.done += 1;
        let index = result + self.identity.max_result();
        if let Some(n) = usize::try_from(index).ok().and_then(|i| self.results.get_mut(i)) {
            *n += 1;
        }
        let n = self.identity.gains.iterations;
        if self.done % samples(n) == 0 || self.done == n {
            self.trajectory.push((self.done, self.theta.clone()));
        }
    }

    /// θ, with each parameter's name.
    pub fn values(&self) -> Vec<(String, f64)> {
        self.identity.params.iter().zip(&self.theta).map(|(p, &t)| (p.name.clone(), t)).collect()
    }
}

/// Why a state file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// It cannot be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// It is not a state file of `hisha tune`.
    #[error("{}: not a state file of hisha tune: {source}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// Why.
        source: serde_json::Error,
    },
}

/// The state file of the run whose records go to `records`: `RECORDS.state`.
pub fn path_for(records: &Path) -> PathBuf {
    PathBuf::from(format!("{}.state", records.display()))
}

/// Reads the state file `path`.
pub fn load(path: &Path) -> Result<TuneState, StateError> {
    let bytes = std::fs::read(path).map_err(FileError::at(path))?;
    serde_json::from_slice(&bytes).map_err(|source| StateError::Parse { path: path.to_path_buf(), source })
}

/// Writes `state` to `path`, whole, replacing the file only once it is complete.
pub fn save(path: &Path, state: &TuneState) -> Result<(), FileError> {
    let write = || -> std::io::Result<()> {
        let mut out = OutputFile::create(path)?;
        serde_json::to_writer(&mut out, state)?;
        out.write_all(b"\n")?;
        out.commit()
    };
    write().map_err(FileError::at(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity(iterations: u64) -> TuneIdentity {
        TuneIdentity {
            params: vec![
                Param { name: "A".into(), start: 20, min: 0, max: 100, c_end: 10.0, r_end: 0.002 },
                Param { name: "B b".into(), start: -3, min: -9, max: 9, c_end: 1.5, r_end: 0.01 },
            ],
            gains: Gains::fishtest(iterations),
            seed: u64::MAX,
            engine: "fake (/bin/fake tunable 1 2)".into(),
            tc: "nodes=1000".into(),
            opponent: None,
        }
    }

    #[test]
    fn a_state_file_reads_back_as_written() {
        let dir = crate::testing::temp_dir("tune-state");
        let path = path_for(&dir.join("t.psn"));
        assert_eq!(path, dir.join("t.psn.state"));
        let mut st = TuneState::new(identity(1000));
        assert_eq!(st.theta, [20.0, -3.0]);
        for k in 0..12 {
            let trial = st.next_trials(1).remove(0);
            assert_eq!(trial.k, k as u64);
            st.apply(&trial, [2, -1, 0, 1][k % 4]);
        }
        assert!(st.theta[1] != -3.0 && st.theta[1] > -9.0, "θ moved, and not to a round number: {:?}", st.theta);
        assert_eq!((st.done, st.results.as_slice()), (12, [0, 3, 3, 3, 3].as_slice()));
        // 1000 iterations: θ is kept every 5, from the start.
        let kept: Vec<u64> = st.trajectory.iter().map(|(k, _)| *k).collect();
        assert_eq!(kept, [0, 5, 10]);
        save(&path, &st).expect("writes");
        assert_eq!(load(&path).expect("reads"), st, "every number, the seed and the float θ round trip");
        std::fs::write(&path, "{\"done\": 3}").expect("write");
        let e = load(&path).expect_err("not a whole state");
        assert!(e.to_string().starts_with(&format!("{}: not a state file of hisha tune: ", path.display())), "{e}");
        let e = load(&dir.join("none.state")).expect_err("missing");
        assert!(matches!(e, StateError::File(_)), "{e}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn against_an_opponent_results_run_from_minus_4_to_4_and_old_state_files_still_read() {
        let dir = crate::testing::temp_dir("tune-state-opponent");
        let path = dir.join("t.psn.state");
        let mut id = identity(100);
        id.opponent = Some("ref (/bin/ref)".into());
        assert_eq!((id.games_per_iteration(), id.max_result()), (4, 4));
        let mut st = TuneState::new(id.clone());
        for (k, result) in [-4, 4, 3, 0, 0].into_iter().enumerate() {
            let trial = st.next_trials(1).remove(0);
            assert_eq!(trial.k, k as u64);
            st.apply(&trial, result);
        }
        assert_eq!(st.results, [1, 0, 0, 0, 2, 0, 0, 1, 1]);
        let d = identity(100).differences(&id);
        assert_eq!(d, ["opponent: none (self-play) there, ref (/bin/ref) now"]);
        // A state file of a self-play run written before opponents existed: no `opponent`.
        let mut old = TuneState::new(identity(100));
        old.results = vec![0, 1, 2, 3, 4];
        save(&path, &old).expect("writes");
        let text = std::fs::read_to_string(&path).expect("reads");
        std::fs::write(&path, text.replace(",\"opponent\":null", "")).expect("writes");
        assert!(!std::fs::read_to_string(&path).expect("reads").contains("opponent"));
        assert_eq!(load(&path).expect("an old file reads"), old);
        let _ = std::fs::remove_dir_all(dir);
    }

    /// A pair result that favours the side whose values are nearer `optimum`: what games would
    /// say, without games.
    fn synthetic(trial: &Trial, optimum: &[f64]) -> i32 {
        let distance = |v: &[i64]| v.iter().zip(optimum).map(|(&x, o)| (x as f64 - o).powi(2)).sum::<f64>();
        match distance(&trial.plus).partial_cmp(&distance(&trial.minus)) {
            Some(std::cmp::Ordering::Less) => 2,
            Some(std::cmp::Ordering::Greater) => -2,
            _ => 0,
        }
    }

    /// Plays `st` on in batches of `batch` iterations until `until` are done.
    fn play(st: &mut TuneState, batch: u64, until: u64) {
        while st.done < until {
            for t in st.next_trials(batch.min(until - st.done)) {
                st.apply(&t, synthetic(&t, &[70.0, 5.0]));
            }
        }
    }

    #[test]
    fn a_resumed_run_continues_the_iteration_count_and_theta() {
        let dir = crate::testing::temp_dir("tune-resume");
        let path = dir.join("t.psn.state");
        let mut straight = TuneState::new(identity(60));
        play(&mut straight, 4, 60);
        assert!(straight.theta[0] > 20.0 && straight.theta[1] > -3.0, "θ went towards (70, 5): {:?}", straight.theta);
        let mut first = TuneState::new(identity(60));
        play(&mut first, 4, 20);
        save(&path, &first).expect("writes");
        let mut resumed = load(&path).expect("reads");
        assert_eq!((resumed.done, resumed.next_trials(4)[0].k), (20, 20), "the count goes on from 20");
        play(&mut resumed, 4, 60);
        assert_eq!(resumed, straight, "the same iterations, θ, results and trajectory as without a break");
        assert!(resumed.next_trials(4).is_empty(), "nothing after the last iteration");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn identities_name_what_differs() {
        let a = identity(100);
        assert!(a.differences(&a.clone()).is_empty());
        let mut b = identity(200);
        b.seed = 1;
        let d = a.differences(&b);
        assert_eq!(d.len(), 3, "{d:?}");
        assert_eq!(d[0], "iterations: 100 there, 200 now");
        assert_eq!(d[1], "gains: A 10 alpha 0.602 gamma 0.101 there, A 20 alpha 0.602 gamma 0.101 now");
    }
}
