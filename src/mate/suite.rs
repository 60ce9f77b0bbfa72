//! Tsume suites as text, one problem a line (tests/data/tsume.txt):
//!
//! ```text
//! # comment
//! <SFEN> <answer> [slow] [# source]
//! ```
//!
//! The SFEN has its four fields; the answer is the mate's length in plies (full width: every
//! defence counts, interposing drops included, so a published length that skips useless
//! interpositions can be shorter; see [`crate::mate`]) or `nomate`; `slow` marks problems too
//! long for the default test run.

use std::fmt;

/// The expected answer of a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A mate of this many plies (shortest mate, longest resistance).
    Mate(u32),
    /// No mate.
    NoMate,
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Mate(n) => write!(f, "{n}"),
            Answer::NoMate => f.write_str("nomate"),
        }
    }
}

/// One problem of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Line number in the file (from 1).
    pub line: usize,
    /// The position (attacker to move).
    pub sfen: String,
    /// The expected answer.
    pub answer: Answer,
    /// Marked `slow`.
    pub slow: bool,
    /// The text after `#` (source and notes).
    pub source: String,
}

/// A line that is not a problem: its number, the column (from 1) where it goes wrong, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct SuiteError {
    /// Line number (from 1).
    pub line: usize,
    /// Column (from 1, in characters).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// Parses a suite. Every malformed line is an error (with its line and column); the SFEN is
/// checked for shape here and for legality by the caller.
pub fn parse(text: &str) -> Result<Vec<Problem>, SuiteError> {
    let mut problems = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let (body, source) = match raw.find('#') {
            Some(k) => (&raw[..k], raw[k + 1..].trim()),
            None => (raw, ""),
        };
        let fields = fields_with_columns(body);
        if fields.is_empty() {
            continue;
        }
        let err = |column: usize, message: String| SuiteError { line, column, message };
        if fields.len() < 5 {
            let column = fields.last().map_or(1, |&(c, f)| c + f.chars().count());
            return Err(err(column, format!("expected `SFEN answer`, found {} field(s)", fields.len())));
        }
        let sfen = fields[..4].iter().map(|&(_, f)| f).collect::<Vec<_>>().join(" ");
        let (column, word) = fields[4];
        let answer = match word {
            "nomate" => Answer::NoMate,
            w => match w.parse::<u32>() {
                Ok(n) if n % 2 == 1 => Answer::Mate(n),
                _ => {
                    return Err(err(column, format!("answer must be an odd number of plies or `nomate`, found `{w}`")));
                }
            },
        };
        let slow = match fields.get(5) {
            None => false,
            Some(&(_, "slow")) if fields.len() == 6 => true,
            Some(&(c, w)) => return Err(err(c, format!("unexpected `{w}` (only `slow` may follow the answer)"))),
        };
        problems.push(Problem { line, sfen, answer, slow, source: source.to_string() });
    }
    Ok(problems)
}

/// Whitespace-separated fields with their 1-based character columns.
fn fields_with_columns(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    let mut col = 0;
    let mut byte_start = 0;
    for (b, ch) in s.char_indices() {
        col += 1;
        match (ch.is_whitespace(), start) {
            (false, None) => {
                start = Some(col);
                byte_start = b;
            }
            (true, Some(c)) => {
                out.push((c, &s[byte_start..b]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(c) = start {
        out.push((c, &s[byte_start..]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_problems_and_comments() {
        let text = "# a suite\n\n4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1 1 # head gold\n\
                    8k/9/9/9/9/9/9/9/9 b G2r2b3g4s4n4l18p 1 nomate\n\
                    8k/9/9/9/9/9/9/9/9 b R2GSr2b2g3s4n4l18p 1 31 slow # zukou 98\n";
        let p = parse(text).expect("valid");
        assert_eq!(p.len(), 3);
        assert_eq!((p[0].line, p[0].answer, p[0].slow, p[0].source.as_str()), (3, Answer::Mate(1), false, "head gold"));
        assert_eq!(p[1].answer, Answer::NoMate);
        assert_eq!((p[2].answer, p[2].slow), (Answer::Mate(31), true));
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("\n4k4/9/4P4/9/9/9/9/9/9 b G 1 2\n").expect_err("even length");
        assert_eq!((e.line, e.column), (2, 29));
        let e = parse("4k4/9/4P4/9/9/9/9/9/9 b G 1\n").expect_err("no answer");
        assert_eq!((e.line, e.column), (1, 28)); // just after the last field
        let e = parse("4k4/9/4P4/9/9/9/9/9/9 b G 1 1 fast\n").expect_err("bad flag");
        assert_eq!((e.line, e.column), (1, 31));
        assert!(e.to_string().starts_with("line 1, column 31: unexpected `fast`"));
        let e = parse("# ok\n4k4/9/4P4/9/9/9/9/9/9 b G 1 mate # source\n").expect_err("not a number");
        assert_eq!((e.line, e.column), (2, 29));
        assert!(e.message.contains("`mate`"), "{e}");
        let e = parse("4k4/9/4P4/9/9/9/9/9/9 b G 1 1 slow slow\n").expect_err("two flags");
        assert_eq!((e.line, e.column), (1, 31));
        let e = parse("4k4/9/4P4/9/9/9/9/9/9 b G 1 -1\n").expect_err("negative");
        assert_eq!((e.line, e.column), (1, 29));
        let e = parse("  # indented comment\n\t4k4/9 b G 1\n").expect_err("short line");
        assert_eq!((e.line, e.column), (2, 13)); // just after `1`, the tab counting as one column
    }
}
