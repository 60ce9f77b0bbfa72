//! The detection boundary between the dialect families (`kif/`, `csa/`, `psn/`, `usi_line`) and
//! the code that combines them ([`super::detect_format`], the stream splitter). Each family tells
//! from a [`Sample`] whether text is written in one of its formats (its `sniff`) and cuts a stream
//! of lines into games (its [`GameBoundaries`]); the rules live in the family, the detector and
//! the splitter only choose and combine them. A family imports nothing of format.rs or stream.rs
//! but the [`super::Format`] type.

/// The start of a file's text as format detection sees it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Sample<'a> {
    text: &'a str,
}

impl<'a> Sample<'a> {
    /// The sample of decoded `text`.
    pub(super) fn new(text: &'a str) -> Sample<'a> {
        Sample { text }
    }

    /// The whole text.
    pub(super) fn text(&self) -> &'a str {
        self.text
    }

    /// The lines that say something, trimmed: neither blank nor `#` comments.
    pub(super) fn significant_lines(&self) -> impl Iterator<Item = &'a str> + use<'a> {
        self.text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'))
    }

    /// The first significant line (empty when there is none).
    pub(super) fn first_line(&self) -> &'a str {
        self.significant_lines().next().unwrap_or("")
    }
}

/// What a line means for the game boundaries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cut {
    /// It belongs to the current game.
    Line,
    /// It is the first line of a new game.
    Starts,
    /// It separates games and belongs to none (CSA `/`).
    Separates,
}

/// One format's rules for where its games start and end, fed a file's lines in order.
pub(super) trait GameBoundaries {
    /// What `line` means for the boundaries, and whether it makes its game worth reporting (a
    /// chunk of only blank lines or comments, such as a file's opening comment, is no game).
    fn cut(&mut self, line: &str) -> (Cut, bool);
}
