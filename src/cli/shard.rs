//! `hisha match`'s shard options: `--shard K/N` (counted from 1), `--shard-index I --shards N`
//! (counted from 0, as schedulers count) or `--shard-from-env slurm|kubernetes` (the scheduler's
//! own variables, read by [`hisha::array_task`]). Clap refuses two ways at once; what it cannot
//! check (an index beyond the count, a variable that is missing or bad) is a [`ShardError`],
//! a usage error (exit status 2).

use super::at_least_one;
use hisha::arena::Shard;
use hisha::array_task::{ArrayTask, ArrayTaskError, Scheduler};

/// Which shard of the schedule to play.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("counted_shard").args(["shard_index", "shard_from_env"])))]
pub struct ShardArgs {
    /// Play only shard K of N (`K/N`, counted from 1; pairs split round-robin).
    #[arg(long, conflicts_with_all = ["shard_index", "shards", "shard_from_env"])]
    pub shard: Option<Shard>,
    /// Play only shard I of --shards N, counted from 0 as schedulers count (0 <= I < N).
    #[arg(long, value_name = "I", requires = "shards", conflicts_with_all = ["shard_from_env", "merge"])]
    pub shard_index: Option<usize>,
    /// How many shards, with --shard-index or --shard-from-env (kubernetes needs it; slurm
    /// checks it against the array's task count).
    #[arg(long, value_name = "N", value_parser = at_least_one(), requires = "counted_shard",
          required_if_eq("shard_from_env", "kubernetes"))]
    pub shards: Option<usize>,
    /// Play the shard of this array job's task, from the scheduler's variables: `slurm`
    /// (SLURM_ARRAY_TASK_ID, _MIN, _MAX, _STEP, _COUNT: --array=0-3 and --array=1-4 both play
    /// the 4 shards; a list such as 1,3,7 is refused) or `kubernetes` (an Indexed Job's
    /// JOB_COMPLETION_INDEX, with --shards N).
    #[arg(long, value_name = "SCHEDULER", conflicts_with = "merge")]
    pub shard_from_env: Option<Scheduler>,
}

/// Shard options that name no shard.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// `--shard-index I --shards N` with I ≥ N.
    #[error("--shard-index {index} is not below --shards {count}")]
    IndexTooLarge {
        /// The index.
        index: usize,
        /// The count.
        count: usize,
    },
    /// `--shard-index` alone (clap asks for `--shards` first).
    #[error("--shard-index needs --shards")]
    NoCount,
    /// The scheduler's variables name no task.
    #[error("--shard-from-env {scheduler}: {source}")]
    Env {
        /// The scheduler.
        scheduler: Scheduler,
        /// Why.
        source: ArrayTaskError,
    },
}

impl ShardArgs {
    /// The shard to play (`None`: the whole schedule), reading the scheduler's variables through
    /// `var`.
    pub fn shard(&self, var: impl Fn(&str) -> Option<String>) -> Result<Option<Shard>, ShardError> {
        let task = match (self.shard, self.shard_index, self.shard_from_env) {
            (Some(shard), _, _) => return Ok(Some(shard)),
            (None, None, None) => return Ok(None),
            (None, Some(index), _) => {
                let count = self.shards.ok_or(ShardError::NoCount)?;
                ArrayTask::new(index, count).ok_or(ShardError::IndexTooLarge { index, count })?
            }
            (None, None, Some(scheduler)) => ArrayTask::from_env(scheduler, self.shards, var)
                .map_err(|source| ShardError::Env { scheduler, source })?,
        };
        Ok(Some(Shard::from(task)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// The shard options alone, as `hisha match` reads them.
    #[derive(Debug, Parser)]
    struct Args {
        #[command(flatten)]
        shard: ShardArgs,
        /// Stands for `hisha match --merge`.
        #[arg(long)]
        merge: Option<String>,
    }

    /// The shard that `args` name in an environment of `vars`, or the error's text (clap's, with
    /// its usage lines, for a command-line error).
    fn shard(args: &[&str], vars: &[(&str, &str)]) -> Result<Option<Shard>, String> {
        let parsed = Args::try_parse_from([&["match"], args].concat()).map_err(|e| e.to_string())?;
        let var = |name: &str| vars.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string());
        parsed.shard.shard(var).map_err(|e| e.to_string())
    }

    /// Slurm's variables for task `id` of `--array=MIN-MAX` (step 1).
    fn slurm(
        id: &'static str,
        min: &'static str,
        max: &'static str,
        count: &'static str,
    ) -> Vec<(&'static str, &'static str)> {
        vec![
            ("SLURM_ARRAY_TASK_ID", id),
            ("SLURM_ARRAY_TASK_MIN", min),
            ("SLURM_ARRAY_TASK_MAX", max),
            ("SLURM_ARRAY_TASK_COUNT", count),
            ("SLURM_ARRAY_TASK_STEP", "1"),
        ]
    }

    #[test]
    fn every_way_names_the_same_shard() {
        let second_of_three = Ok(Shard::new(2, 3));
        assert_eq!(shard(&["--shard", "2/3"], &[]), second_of_three);
        assert_eq!(shard(&["--shard-index", "1", "--shards", "3"], &[]), second_of_three);
        // --array=0-2 and --array=1-3: the second task either way.
        assert_eq!(shard(&["--shard-from-env", "slurm"], &slurm("1", "0", "2", "3")), second_of_three);
        assert_eq!(shard(&["--shard-from-env", "slurm"], &slurm("2", "1", "3", "3")), second_of_three);
        assert_eq!(shard(&["--shard-from-env", "slurm", "--shards", "3"], &slurm("2", "1", "3", "3")), second_of_three);
        let k8s = [("JOB_COMPLETION_INDEX", "1")];
        assert_eq!(shard(&["--shard-from-env", "kubernetes", "--shards", "3"], &k8s), second_of_three);
        assert_eq!(shard(&[], &slurm("1", "0", "2", "3")), Ok(None), "the variables alone shard nothing");
    }

    #[test]
    fn what_names_no_shard_is_an_error_naming_the_option_or_variable() {
        let e = |args: &[&str], vars: &[(&str, &str)]| shard(args, vars).expect_err("no shard");
        assert_eq!(e(&["--shard-index", "3", "--shards", "3"], &[]), "--shard-index 3 is not below --shards 3");
        assert_eq!(
            e(&["--shard-from-env", "slurm"], &[]),
            "--shard-from-env slurm: SLURM_ARRAY_TASK_ID is not set: is this a task of an array job?"
        );
        assert_eq!(
            e(&["--shard-from-env", "slurm", "--shards", "4"], &slurm("1", "0", "2", "3")),
            "--shard-from-env slurm: the array has SLURM_ARRAY_TASK_COUNT=3 tasks, not 4"
        );
        assert_eq!(
            e(&["--shard-from-env", "kubernetes", "--shards", "2"], &[("JOB_COMPLETION_INDEX", "2")]),
            "--shard-from-env kubernetes: JOB_COMPLETION_INDEX=2 is not below the count 2"
        );
        let hand_made = ShardArgs { shard: None, shard_index: Some(0), shards: None, shard_from_env: None };
        assert_eq!(hand_made.shard(|_| None), Err(ShardError::NoCount));
    }

    #[test]
    fn two_ways_at_once_or_half_a_way_is_a_command_line_error() {
        let e = |args: &[&str]| shard(args, &[]).expect_err("refused by clap");
        let conflict = |args: &[&str], with: &str| {
            let text = e(args);
            assert!(text.contains("cannot be used with") && text.contains(with), "{args:?}: {text}");
        };
        conflict(&["--shard", "1/2", "--shard-index", "0", "--shards", "2"], "--shard-index");
        conflict(&["--shard", "1/2", "--shard-from-env", "slurm"], "--shard-from-env");
        conflict(&["--shard-index", "0", "--shards", "2", "--shard-from-env", "slurm"], "--shard-from-env");
        conflict(&["--shard-from-env", "slurm", "--merge", "a.state"], "--merge");
        conflict(&["--shard-index", "0", "--shards", "2", "--merge", "a.state"], "--merge");
        let missing = |args: &[&str], what: &str| {
            let text = e(args);
            assert!(text.contains("were not provided") && text.contains(what), "{args:?}: {text}");
        };
        missing(&["--shard-index", "0"], "--shards <N>");
        missing(&["--shard-from-env", "kubernetes"], "--shards <N>");
        missing(&["--shards", "2"], "--shard-index <I>");
        assert!(e(&["--shards", "0", "--shard-index", "0"]).contains("0 is not in 1.."));
        assert!(e(&["--shard-from-env", "pbs"]).contains("wants slurm or kubernetes, got \"pbs\""));
    }
}
