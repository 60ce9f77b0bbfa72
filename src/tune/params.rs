//! The parameters file of `hisha tune`, in fishtest's one-line-per-parameter format:
//! `Name, start, min, max, c_end, r_end` (fishtest's `parse_spsa_params` in
//! server/fishtest/spsa_workflow.py reads the same six comma-separated fields). Each name is a
//! USI `spin` option of the tuned engine, so start, min and max are whole numbers; `c_end` (the
//! perturbation at the last iteration) must be above 0 and `r_end` (the learning rate at the last
//! iteration) at least 0. Blank lines and `#` comments (whole lines or line ends) are skipped. An
//! error names its line and the column of the field it is about.

use std::fmt;

/// One tuned parameter: a `spin` option of the engine and its SPSA settings.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Param {
    /// The option's name, as `setoption name …` sends it.
    pub name: String,
    /// The value the tuning starts from.
    pub start: i64,
    /// The smallest value tried.
    pub min: i64,
    /// The largest value tried.
    pub max: i64,
    /// The perturbation (`c`) at the last iteration.
    pub c_end: f64,
    /// The learning rate (`r = a / c²`) at the last iteration.
    pub r_end: f64,
}

/// A parameters file that cannot be used: where (1-based line and column, in characters) and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {reason}")]
pub struct ParamsError {
    /// The line.
    pub line: usize,
    /// The column of the field (or of the line's end, for a missing field).
    pub column: usize,
    /// What is wrong.
    pub reason: String,
}

/// The fields of a line, in order.
const FIELDS: [&str; 6] = ["name", "start", "min", "max", "c_end", "r_end"];

/// A field of a line: its text (trimmed) and its 1-based column.
struct Field<'a> {
    text: &'a str,
    column: usize,
}

impl Field<'_> {
    /// The field as a whole number (`what` names it in the error).
    fn whole(&self, line: usize, what: &str) -> Result<i64, ParamsError> {
        self.text.parse().map_err(|_| ParamsError {
            line,
            column: self.column,
            reason: format!("{what} {:?} is not a whole number (the option is a USI spin)", self.text),
        })
    }

    /// The field as a finite number (`what` names it in the error).
    fn number(&self, line: usize, what: &str) -> Result<f64, ParamsError> {
        match self.text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(ParamsError {
                line,
                column: self.column,
                reason: format!("{what} {:?} is not a number", self.text),
            }),
        }
    }
}

/// The fields of `line` (comment removed), each with its column.
fn fields(line: &str) -> Vec<Field<'_>> {
    let code = line.split('#').next().unwrap_or("");
    let mut out = Vec::new();
    let mut start = 0;
    for piece in code.split(',') {
        let lead = piece.len() - piece.trim_start().len();
        let column = code[..start + lead].chars().count() + 1;
        out.push(Field { text: piece.trim(), column });
        start += piece.len() + 1;
    }
    out
}

/// Reads one parameter from the fields of line `n`.
fn param(n: usize, f: &[Field<'_>], line_end: usize) -> Result<Param, ParamsError> {
    let at = |field: &Field<'_>, reason: String| ParamsError { line: n, column: field.column, reason };
    if f.len() != FIELDS.len() {
        let column = f.get(FIELDS.len()).map_or(line_end, |x| x.column);
        let reason = format!("{} fields, expected 6: {}", f.len(), FIELDS.join(", "));
        return Err(ParamsError { line: n, column, reason });
    }
    if f[0].text.is_empty() {
        return Err(at(&f[0], "no name".into()));
    }
    let (start, min, max) = (f[1].whole(n, "start")?, f[2].whole(n, "min")?, f[3].whole(n, "max")?);
    if min >= max {
        return Err(at(&f[3], format!("max {max} is not above min {min}")));
    }
    if !(min..=max).contains(&start) {
        return Err(at(&f[1], format!("start {start} is outside {min}..{max}")));
    }
    let c_end = f[4].number(n, "c_end")?;
    if c_end <= 0.0 {
        return Err(at(&f[4], format!("c_end {c_end} is not above 0")));
    }
    let r_end = f[5].number(n, "r_end")?;
    if r_end < 0.0 {
        return Err(at(&f[5], format!("r_end {r_end} is below 0")));
    }
    Ok(Param { name: f[0].text.to_string(), start, min, max, c_end, r_end })
}

/// Reads a parameters file's text: one [`Param`] per line that is not blank or a comment, in
/// order; a name given twice is an error.
pub fn parse(text: &str) -> Result<Vec<Param>, ParamsError> {
    let mut params: Vec<Param> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let f = fields(line);
        if f.len() == 1 && f[0].text.is_empty() {
            continue;
        }
        let line_end = line.split('#').next().unwrap_or("").chars().count() + 1;
        let p = param(i + 1, &f, line_end)?;
        if params.iter().any(|q| q.name == p.name) {
            return Err(ParamsError { line: i + 1, column: f[0].column, reason: format!("{} is given twice", p.name) });
        }
        params.push(p);
    }
    Ok(params)
}

impl fmt::Display for Param {
    /// The parameter as a line of the file.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, {}, {}, {}, {}, {}", self.name, self.start, self.min, self.max, self.c_end, self.r_end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_comments_and_blanks() {
        let text = "# name, start, min, max, c_end, r_end\n\nFutility, 20, 0, 100, 10, 0.0020  # margin\n  Lmr,80,0,100,5,0.002\n";
        let params = parse(text).expect("reads");
        assert_eq!(
            params,
            [
                Param { name: "Futility".into(), start: 20, min: 0, max: 100, c_end: 10.0, r_end: 0.002 },
                Param { name: "Lmr".into(), start: 80, min: 0, max: 100, c_end: 5.0, r_end: 0.002 },
            ]
        );
        assert_eq!(parse(&params.iter().map(|p| format!("{p}\n")).collect::<String>()), Ok(params), "round trip");
        assert_eq!(parse("# nothing\n\n"), Ok(Vec::new()));
    }

    #[test]
    fn errors_name_the_line_and_the_column_of_the_field() {
        let err = |text: &str| parse(text).map(|_| ()).map_err(|e| (e.line, e.column, e.reason));
        let at = |text: &str| err(text).map_err(|(l, c, _)| (l, c));
        // Columns count characters from 1: in "A, 1, 0, 9, 1, 0.1" the fields start at columns 1, 4,
        // 7, 10, 13 and 16.
        assert_eq!(at("A, x, 0, 9, 1, 0.1"), Err((1, 4)));
        assert_eq!(at("\n# c\nA, 1, 0, 9, 1, 0.1\nB, 1, 0, 9.5, 1, 0.1"), Err((4, 10)), "max is no whole number");
        assert_eq!(at("A, 10, 0, 9, 1, 0.1"), Err((1, 4)), "start outside min..max");
        assert_eq!(at("A, 1, 9, 0, 1, 0.1"), Err((1, 10)), "max not above min");
        assert_eq!(at("A, 1, 0, 9, 0, 0.1"), Err((1, 13)), "c_end 0");
        assert_eq!(at("A, 1, 0, 9, 1, -1"), Err((1, 16)), "r_end below 0");
        assert_eq!(at("A, 1, 0, 9, 1, inf"), Err((1, 16)), "r_end infinite");
        assert_eq!(at("A, 1, 0, 9"), Err((1, 11)), "too few fields: the line's end");
        assert_eq!(at("A, 1, 0, 9, 1, 0.1, 7 # x"), Err((1, 21)), "too many: the seventh field");
        assert_eq!(at(" , 1, 0, 9, 1, 0.1"), Err((1, 2)), "no name");
        assert_eq!(at("A, 1, 0, 9, 1, 0.1\nA, 2, 0, 9, 1, 0.1"), Err((2, 1)), "a name twice");
        let (_, _, reason) = err("A, 1, 0, 9").expect_err("bad");
        assert_eq!(reason, "4 fields, expected 6: name, start, min, max, c_end, r_end");
        assert_eq!(
            parse("A, x, 0, 9, 1, 0.1").map_err(|e| e.to_string()),
            Err("line 1, column 4: start \"x\" is not a whole number (the option is a USI spin)".into())
        );
    }
}
