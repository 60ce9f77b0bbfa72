//! Which task of a scheduler's array job this process is, as an index counted from 0 of a count:
//! read from Slurm's `SLURM_ARRAY_TASK_*` variables or from Kubernetes' `JOB_COMPLETION_INDEX`
//! (an Indexed Job), through a function that looks a variable up (the process environment, or a
//! table in tests). `hisha match --shard-from-env` and the NNUE generator take their shard from it.
//!
//! Slurm numbers the tasks as `--array` says and tells each task its own ID and the array's
//! MIN, MAX, STEP and COUNT; Slurm 22.05.8 sets them so (the `env` of every task):
//!
//! | `--array` | IDs | COUNT | MIN | MAX | STEP |
//! |---|---|---|---|---|---|
//! | `0-2` | 0, 1, 2 | 3 | 0 | 2 | 1 |
//! | `1-4` | 1, 2, 3, 4 | 4 | 1 | 4 | 1 |
//! | `0-9:3` | 0, 3, 6, 9 | 4 | 0 | 9 | 3 |
//! | `1,3,7` | 1, 3, 7 | 3 | 1 | 7 | 1 |
//! | `5` | 5 | 1 | 5 | 5 | 1 |
//!
//! The IDs of a range are MIN, MIN + STEP, …, MAX, and the task with ID `id` is index
//! `(id - MIN) / STEP` of COUNT. A list that is not such a range (`1,3,7`: MIN + 2 × STEP is not
//! MAX) has no such numbering and is refused, never guessed.

use std::str::FromStr;

/// The scheduler whose variables say which task this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheduler {
    /// Slurm's array jobs (`sbatch --array`).
    Slurm,
    /// Kubernetes' Indexed Jobs (`completionMode: Indexed`).
    Kubernetes,
}

impl Scheduler {
    /// The scheduler's name as the command line writes it.
    pub fn name(self) -> &'static str {
        match self {
            Scheduler::Slurm => "slurm",
            Scheduler::Kubernetes => "kubernetes",
        }
    }
}

impl std::fmt::Display for Scheduler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that names no scheduler.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("wants slurm or kubernetes, got {0:?}")]
pub struct ParseSchedulerError(String);

impl FromStr for Scheduler {
    type Err = ParseSchedulerError;

    /// Reads `slurm` or `kubernetes`.
    fn from_str(text: &str) -> Result<Scheduler, ParseSchedulerError> {
        [Scheduler::Slurm, Scheduler::Kubernetes]
            .into_iter()
            .find(|s| s.name() == text)
            .ok_or_else(|| ParseSchedulerError(text.to_string()))
    }
}

/// Task `index` of `count`, `index < count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrayTask {
    /// Which task, counted from 0.
    index: usize,
    /// How many tasks.
    count: usize,
}

/// Why the variables name no task.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArrayTaskError {
    /// A variable is not set.
    #[error("{0} is not set: is this a task of an array job?")]
    Missing(&'static str),
    /// A variable that is not a number (at least 1 for a count or a step).
    #[error("{var}={value:?} is not {wants}")]
    BadValue {
        /// The variable.
        var: &'static str,
        /// Its value.
        value: String,
        /// What it should be.
        wants: &'static str,
    },
    /// A Slurm array whose IDs are not MIN, MIN + STEP, …, MAX.
    #[error(
        "the array's task IDs are not a range (SLURM_ARRAY_TASK_MIN={min}, SLURM_ARRAY_TASK_MAX={max}, \
         SLURM_ARRAY_TASK_STEP={step}, SLURM_ARRAY_TASK_COUNT={count}: a list such as --array=1,3,7?): \
         submit with --array=0-{last}",
        last = count - 1
    )]
    NotARange {
        /// `SLURM_ARRAY_TASK_MIN`.
        min: usize,
        /// `SLURM_ARRAY_TASK_MAX`.
        max: usize,
        /// `SLURM_ARRAY_TASK_STEP`.
        step: usize,
        /// `SLURM_ARRAY_TASK_COUNT`.
        count: usize,
    },
    /// A Slurm task ID outside the array's range.
    #[error("SLURM_ARRAY_TASK_ID={id} is not one of the array's IDs {min}-{max}:{step}")]
    NotInRange {
        /// `SLURM_ARRAY_TASK_ID`.
        id: usize,
        /// `SLURM_ARRAY_TASK_MIN`.
        min: usize,
        /// `SLURM_ARRAY_TASK_MAX`.
        max: usize,
        /// `SLURM_ARRAY_TASK_STEP`.
        step: usize,
    },
    /// An index at or beyond the count.
    #[error("{var}={index} is not below the count {count}")]
    IndexTooLarge {
        /// The variable.
        var: &'static str,
        /// Its value.
        index: usize,
        /// The count given.
        count: usize,
    },
    /// A count asked for that is not the array's.
    #[error("the array has SLURM_ARRAY_TASK_COUNT={tasks} tasks, not {count}")]
    OtherCount {
        /// `SLURM_ARRAY_TASK_COUNT`.
        tasks: usize,
        /// The count asked for.
        count: usize,
    },
    /// Kubernetes without a count: an Indexed Job's tasks know their index only.
    #[error("JOB_COMPLETION_INDEX numbers the task, not the tasks: give their count (the Job's completions)")]
    NoCount,
}

impl ArrayTask {
    /// Task `index` of `count` (counted from 0); `None` unless `index < count`.
    pub fn new(index: usize, count: usize) -> Option<ArrayTask> {
        (index < count).then_some(ArrayTask { index, count })
    }

    /// Which task, counted from 0.
    pub fn index(self) -> usize {
        self.index
    }

    /// How many tasks.
    pub fn count(self) -> usize {
        self.count
    }

    /// The task that `scheduler`'s variables, looked up by `var`, say this is. `count` is the
    /// number of tasks the caller expects: Kubernetes needs it, and Slurm's array must have that
    /// many when it is given.
    pub fn from_env(
        scheduler: Scheduler,
        count: Option<usize>,
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<ArrayTask, ArrayTaskError> {
        match scheduler {
            Scheduler::Slurm => {
                let task = slurm(&var)?;
                match count {
                    Some(count) if count != task.count => Err(ArrayTaskError::OtherCount { tasks: task.count, count }),
                    _ => Ok(task),
                }
            }
            Scheduler::Kubernetes => {
                let count = count.ok_or(ArrayTaskError::NoCount)?;
                let var_name = "JOB_COMPLETION_INDEX";
                let index = number(&var, var_name, 0)?;
                ArrayTask::new(index, count).ok_or(ArrayTaskError::IndexTooLarge { var: var_name, index, count })
            }
        }
    }
}

/// The variable `name` of this process's environment, for [`ArrayTask::from_env`] (a value that
/// is not UTF-8 is read lossily, and then refused as not a number).
pub fn process_var(name: &str) -> Option<String> {
    std::env::var_os(name).map(|v| v.to_string_lossy().into_owned())
}

/// The number in variable `name`, at least `least` (0 or 1).
fn number(var: &impl Fn(&str) -> Option<String>, name: &'static str, least: usize) -> Result<usize, ArrayTaskError> {
    let value = var(name).ok_or(ArrayTaskError::Missing(name))?;
    let wants = if least == 0 { "a number" } else { "a number of at least 1" };
    match value.trim().parse::<usize>() {
        Ok(n) if n >= least => Ok(n),
        _ => Err(ArrayTaskError::BadValue { var: name, value, wants }),
    }
}

/// The task of a Slurm array job (see the module's table).
fn slurm(var: &impl Fn(&str) -> Option<String>) -> Result<ArrayTask, ArrayTaskError> {
    let id = number(var, "SLURM_ARRAY_TASK_ID", 0)?;
    let count = number(var, "SLURM_ARRAY_TASK_COUNT", 1)?;
    let min = number(var, "SLURM_ARRAY_TASK_MIN", 0)?;
    let max = number(var, "SLURM_ARRAY_TASK_MAX", 0)?;
    // Slurm sets the step for every array; an older one without it had steps of 1.
    let step = match var("SLURM_ARRAY_TASK_STEP") {
        Some(_) => number(var, "SLURM_ARRAY_TASK_STEP", 1)?,
        None => 1,
    };
    if (count - 1).checked_mul(step).and_then(|span| span.checked_add(min)) != Some(max) {
        return Err(ArrayTaskError::NotARange { min, max, step, count });
    }
    if !(min..=max).contains(&id) || (id - min) % step != 0 {
        return Err(ArrayTaskError::NotInRange { id, min, max, step });
    }
    Ok(ArrayTask { index: (id - min) / step, count })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The variables of one Slurm task: `(ID, COUNT, MIN, MAX, STEP)` as Slurm 22.05.8 set them
    /// (the module's table).
    fn slurm_task(id: usize, count: usize, min: usize, max: usize, step: usize) -> impl Fn(&str) -> Option<String> {
        move |name| {
            let value = match name {
                "SLURM_ARRAY_TASK_ID" => id,
                "SLURM_ARRAY_TASK_COUNT" => count,
                "SLURM_ARRAY_TASK_MIN" => min,
                "SLURM_ARRAY_TASK_MAX" => max,
                "SLURM_ARRAY_TASK_STEP" => step,
                _ => return None,
            };
            Some(value.to_string())
        }
    }

    /// The `(index, count)` of every task of an array with these IDs and variables.
    fn indices(ids: &[usize], count: usize, min: usize, max: usize, step: usize) -> Vec<(usize, usize)> {
        ids.iter()
            .map(|&id| ArrayTask::from_env(Scheduler::Slurm, None, slurm_task(id, count, min, max, step)))
            .map(|t| t.map(|t| (t.index(), t.count())).expect("a task"))
            .collect()
    }

    #[test]
    fn slurm_arrays_from_0_from_1_and_with_a_step_number_their_tasks_from_0() {
        assert_eq!(indices(&[0, 1, 2], 3, 0, 2, 1), [(0, 3), (1, 3), (2, 3)], "--array=0-2");
        assert_eq!(indices(&[1, 2, 3, 4], 4, 1, 4, 1), [(0, 4), (1, 4), (2, 4), (3, 4)], "--array=1-4");
        assert_eq!(indices(&[0, 3, 6, 9], 4, 0, 9, 3), [(0, 4), (1, 4), (2, 4), (3, 4)], "--array=0-9:3");
        assert_eq!(indices(&[5], 1, 5, 5, 1), [(0, 1)], "--array=5");
    }

    #[test]
    fn a_slurm_list_that_is_not_a_range_is_refused() {
        // --array=1,3,7 (COUNT=3, MIN=1, MAX=7, STEP=1): 1 + 2 * 1 is not 7.
        let e = ArrayTask::from_env(Scheduler::Slurm, None, slurm_task(3, 3, 1, 7, 1)).expect_err("a list");
        assert_eq!(e, ArrayTaskError::NotARange { min: 1, max: 7, step: 1, count: 3 });
        assert!(e.to_string().ends_with("submit with --array=0-2"), "{e}");
        // An ID off the range's steps.
        let e = ArrayTask::from_env(Scheduler::Slurm, None, slurm_task(4, 4, 0, 9, 3)).expect_err("off the steps");
        assert_eq!(e.to_string(), "SLURM_ARRAY_TASK_ID=4 is not one of the array's IDs 0-9:3");
    }

    #[test]
    fn a_missing_or_bad_slurm_variable_is_named() {
        let without = |missing: &'static str| {
            let task = slurm_task(1, 4, 1, 4, 1);
            move |name: &str| if name == missing { None } else { task(name) }
        };
        for var in ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX"] {
            let e = ArrayTask::from_env(Scheduler::Slurm, None, without(var)).expect_err(var);
            assert_eq!(e.to_string(), format!("{var} is not set: is this a task of an array job?"));
        }
        // A Slurm without SLURM_ARRAY_TASK_STEP had steps of 1.
        let task = ArrayTask::from_env(Scheduler::Slurm, None, without("SLURM_ARRAY_TASK_STEP"));
        assert_eq!(task, Ok(ArrayTask { index: 0, count: 4 }));
        let with = |var: &'static str, value: &'static str| {
            let task = slurm_task(1, 4, 1, 4, 1);
            move |name: &str| if name == var { Some(value.to_string()) } else { task(name) }
        };
        let e =
            |var, value| ArrayTask::from_env(Scheduler::Slurm, None, with(var, value)).expect_err(value).to_string();
        assert_eq!(e("SLURM_ARRAY_TASK_ID", "x"), "SLURM_ARRAY_TASK_ID=\"x\" is not a number");
        assert_eq!(e("SLURM_ARRAY_TASK_MIN", "-1"), "SLURM_ARRAY_TASK_MIN=\"-1\" is not a number");
        assert_eq!(e("SLURM_ARRAY_TASK_COUNT", "0"), "SLURM_ARRAY_TASK_COUNT=\"0\" is not a number of at least 1");
        assert_eq!(e("SLURM_ARRAY_TASK_STEP", "0"), "SLURM_ARRAY_TASK_STEP=\"0\" is not a number of at least 1");
    }

    #[test]
    fn a_count_given_for_slurm_must_be_the_arrays() {
        let task = |count| ArrayTask::from_env(Scheduler::Slurm, count, slurm_task(2, 4, 1, 4, 1));
        assert_eq!(task(Some(4)), Ok(ArrayTask { index: 1, count: 4 }));
        let e = task(Some(3)).expect_err("another count");
        assert_eq!(e.to_string(), "the array has SLURM_ARRAY_TASK_COUNT=4 tasks, not 3");
    }

    #[test]
    fn kubernetes_gives_the_index_and_the_caller_the_count() {
        let index = |value: &'static str| move |name: &str| (name == "JOB_COMPLETION_INDEX").then(|| value.to_string());
        let k8s = |count, value| ArrayTask::from_env(Scheduler::Kubernetes, count, index(value));
        assert_eq!(k8s(Some(3), "0"), Ok(ArrayTask { index: 0, count: 3 }));
        assert_eq!(k8s(Some(3), "2"), Ok(ArrayTask { index: 2, count: 3 }));
        let e = |count, value| k8s(count, value).expect_err(value).to_string();
        assert_eq!(e(Some(3), "3"), "JOB_COMPLETION_INDEX=3 is not below the count 3");
        assert_eq!(e(Some(3), "one"), "JOB_COMPLETION_INDEX=\"one\" is not a number");
        assert!(e(None, "0").starts_with("JOB_COMPLETION_INDEX numbers the task, not the tasks"));
        let none = ArrayTask::from_env(Scheduler::Kubernetes, Some(3), |_| None).expect_err("not set");
        assert_eq!(none, ArrayTaskError::Missing("JOB_COMPLETION_INDEX"));
    }

    #[test]
    fn schedulers_and_tasks_are_read_and_checked() {
        assert_eq!("slurm".parse(), Ok(Scheduler::Slurm));
        assert_eq!("kubernetes".parse(), Ok(Scheduler::Kubernetes));
        let e = "pbs".parse::<Scheduler>().expect_err("no such scheduler");
        assert_eq!(e.to_string(), "wants slurm or kubernetes, got \"pbs\"");
        assert_eq!(ArrayTask::new(2, 3).map(|t| (t.index(), t.count())), Some((2, 3)));
        assert_eq!(ArrayTask::new(3, 3), None);
    }
}
