//! The game record model, independent of notation: where a game starts ([`Start`]), its moves
//! with times, engine data and comments ([`MoveRecord`], [`EngineInfo`]), its variations as a tree
//! ([`Variation`]) and how it ended. Times are kept in milliseconds.

use crate::position::sfen::SfenError;
use crate::position::{GameResult, Handicap, Position};
use crate::types::Move;

/// Where a game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// One of the sixteen standard starts (even or a handicap).
    Handicap(Handicap),
    /// Any other position, as canonical USI SFEN.
    Sfen(String),
}

impl Start {
    /// The start for an SFEN: a named start when it is one of the sixteen.
    pub fn from_sfen(sfen: &str) -> Result<Start, SfenError> {
        let pos = Position::from_sfen(sfen)?;
        let canonical = pos.to_sfen();
        Ok(match Handicap::from_start_sfen(&canonical) {
            Some(h) if canonical.ends_with(" 1") => Start::Handicap(h),
            _ => Start::Sfen(canonical),
        })
    }

    /// The start position.
    pub fn position(&self) -> Result<Position, SfenError> {
        match self {
            Start::Handicap(h) => Ok(Position::handicap(*h)),
            Start::Sfen(s) => Position::from_sfen(s),
        }
    }

    /// The start as canonical SFEN.
    pub fn sfen(&self) -> String {
        match self {
            Start::Handicap(h) => h.sfen().to_string(),
            Start::Sfen(s) => s.clone(),
        }
    }
}

impl Default for Start {
    fn default() -> Start {
        Start::Handicap(Handicap::Even)
    }
}

/// A score reported by an engine with its move, from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many plies (negative: being mated).
    Mate(i32),
}

impl std::ops::Neg for Score {
    type Output = Score;

    /// The same score from the other side's point of view.
    fn neg(self) -> Score {
        match self {
            Score::Cp(v) => Score::Cp(-v),
            Score::Mate(n) => Score::Mate(-n),
        }
    }
}

/// What an engine said about the move it played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineInfo {
    /// Score from the mover's point of view.
    pub score: Option<Score>,
    /// Search depth.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Search time the engine reported, in ms.
    pub time_ms: Option<u64>,
    /// Expected continuation (starting with the move played).
    pub pv: Vec<Move>,
    /// The data comes from analysing the record afterwards (`hisha analyze`), not from the engine
    /// that played the move: KIF and KI2 write it as ShogiGUI's analysis line (`**解析 0 候補1 …`,
    /// score from Black's point of view) instead of its game line (`**対局 …`, the mover's).
    pub analysis: bool,
}

impl EngineInfo {
    /// True if nothing is known.
    pub fn is_empty(&self) -> bool {
        self.score.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
            && self.time_ms.is_none()
            && self.pv.is_empty()
    }
}

/// One move of a game with what is known about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// The move.
    pub mv: Move,
    /// Time used on this move in ms.
    pub time_ms: Option<u64>,
    /// The mover's total time used so far in ms (including this move).
    pub total_ms: Option<u64>,
    /// Engine data, if an engine played it.
    pub engine: EngineInfo,
    /// Comments about the move.
    pub comments: Vec<String>,
}

impl MoveRecord {
    /// A bare move.
    pub fn new(mv: Move) -> MoveRecord {
        MoveRecord { mv, time_ms: None, total_ms: None, engine: EngineInfo::default(), comments: Vec::new() }
    }
}

/// An alternative line: it replaces the moves of its parent line from `ply` on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    /// 1-based ply of the variation's first move (counted from the game's first move).
    pub ply: usize,
    /// The line it branches from: `None` = the main line, `Some(i)` = variation `i` (earlier in
    /// the list).
    pub parent: Option<usize>,
    /// The moves.
    pub moves: Vec<MoveRecord>,
}

/// A date and time as KIF and CSA headers write it: without the ` UTC` that a match's
/// `GameStartTime` and `GameEndTime` tags carry (neither format has a time zone).
pub(crate) fn zoneless(value: &str) -> &str {
    value.strip_suffix(" UTC").unwrap_or(value)
}

/// A game record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRecord {
    /// Header tags in order, with the names hisha uses: `Event`, `Site`, `Date`, `Round`,
    /// `Black`, `White`, `BlackRank`, `WhiteRank`, `Opening`, `TimeControl`, `BlackTimeControl`,
    /// `WhiteTimeControl`, `GameStartTime` and `GameEndTime` (`YYYY/MM/DD HH:MM:SS UTC`, as a
    /// match writes them), `Title`, and any others as found.
    pub tags: Vec<(String, String)>,
    /// The start position.
    pub start: Start,
    /// Comments before the first move (the record summary).
    pub summary: Vec<String>,
    /// The main line.
    pub moves: Vec<MoveRecord>,
    /// Alternative lines.
    pub variations: Vec<Variation>,
    /// How the game ended, if it did.
    pub result: Option<GameResult>,
    /// Time in ms the side to move used before the end (thinking before resigning, say), which
    /// PSN, PSN2 and KIF write on the terminal line and CSA after the `%` line.
    pub end_time_ms: Option<u64>,
}

impl GameRecord {
    /// A record from a start and a list of moves.
    pub fn new(start: Start, moves: impl IntoIterator<Item = Move>) -> GameRecord {
        GameRecord { start, moves: moves.into_iter().map(MoveRecord::new).collect(), ..GameRecord::default() }
    }

    /// The value of tag `name` (case-insensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Sets tag `name`, replacing an existing value.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k.eq_ignore_ascii_case(name)) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The position after the main line (moves are assumed legal, as readers guarantee).
    pub fn final_position(&self) -> Result<Position, SfenError> {
        let mut pos = self.start.position()?;
        for m in &self.moves {
            pos.do_move(m.mv);
        }
        Ok(pos)
    }

    /// When the game started, as KIF's `開始日時` and CSA's `$START_TIME` write it: the
    /// `GameStartTime` tag a match writes, else the `Date` tag.
    pub(crate) fn start_datetime(&self) -> Option<&str> {
        self.tag("GameStartTime").map(zoneless).or_else(|| self.tag("Date"))
    }

    /// The time (used, total) the side to move has at the end: [`GameRecord::end_time_ms`], and
    /// its total from the side's last move plus that.
    pub(crate) fn end_times(&self) -> (u64, u64) {
        let used = self.end_time_ms.unwrap_or(0);
        let before = self.moves.len().checked_sub(2).and_then(|i| self.moves[i].total_ms).unwrap_or(0);
        (used, before + used)
    }

    /// The number GUIs write on the first move: the start SFEN's move number.
    pub(crate) fn first_move_number(&self) -> usize {
        match &self.start {
            Start::Handicap(_) => 1,
            Start::Sfen(s) => s.rsplit(' ').next().and_then(|n| n.parse().ok()).unwrap_or(1).max(1),
        }
    }

    /// The order writers put variations in, as MyShogi does: after the main line, for each line its
    /// branches from the deepest branch point back (branches at the same point in list order), each
    /// followed by its own branches. Readers that rewind the line read last to the branch point,
    /// as every GUI does, rebuild the same tree from it.
    pub(crate) fn variation_order(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.variations.len());
        let mut stack = vec![None];
        while let Some(parent) = stack.pop() {
            if let Some(p) = parent {
                out.push(p);
            }
            let mut kids: Vec<usize> = (0..self.variations.len())
                .filter(|&i| self.variations[i].parent == parent && parent.is_none_or(|p| p < i))
                .collect();
            // Popped last first: push the shallowest first and, at one point, the last first.
            kids.sort_by(|&a, &b| self.variations[a].ply.cmp(&self.variations[b].ply).then(b.cmp(&a)));
            stack.extend(kids.into_iter().map(Some));
        }
        out
    }

    /// The same game with its variations in `GameRecord::variation_order` and their parents
    /// as a reader finds them: what writing the record and reading it back gives.
    pub fn normalized(&self) -> GameRecord {
        let mut out = GameRecord { variations: Vec::with_capacity(self.variations.len()), ..self.clone() };
        let mut current = None;
        for i in self.variation_order() {
            let v = &self.variations[i];
            if let Some(parent) = out.branch_parent(current, v.ply) {
                out.variations.push(Variation { ply: v.ply, parent, moves: v.moves.clone() });
                current = Some(out.variations.len() - 1);
            }
        }
        out
    }

    /// The length of line `l`'s path: its moves and those before it on the lines it branches from.
    fn path_len(&self, l: Option<usize>) -> usize {
        match l.and_then(|i| self.variations.get(i)) {
            None => self.moves.len(),
            Some(v) => v.ply - 1 + v.moves.len(),
        }
    }

    /// Where a variation starting at `ply` branches when the line read last is `current`, as GUIs
    /// read variations: `current` rewound to the move before (or, if it is too short, the most
    /// recent line long enough), recorded as the line that holds that move. `None` if no line
    /// reaches the branch point.
    pub(crate) fn branch_parent(&self, current: Option<usize>, ply: usize) -> Option<Option<usize>> {
        if ply == 0 {
            return None;
        }
        let long_enough = |l: Option<usize>| self.path_len(l) + 1 >= ply;
        let mut line = if long_enough(current) {
            current
        } else if let Some(i) = (0..self.variations.len()).rev().find(|&i| long_enough(Some(i))) {
            Some(i)
        } else if long_enough(None) {
            None
        } else {
            return None;
        };
        while let Some(v) = line.and_then(|i| self.variations.get(i)) {
            if v.ply < ply {
                break;
            }
            line = v.parent;
        }
        Some(line)
    }

    /// The moves of variation `i` preceded by the moves of the line it branches from.
    pub(crate) fn variation_line(&self, i: usize) -> Vec<Move> {
        let Some(v) = self.variations.get(i) else {
            return Vec::new();
        };
        let mut line = match v.parent {
            None => self.moves.iter().map(|m| m.mv).collect::<Vec<_>>(),
            Some(p) if p < i => self.variation_line(p),
            Some(_) => Vec::new(),
        };
        line.truncate(v.ply.saturating_sub(1));
        line.extend(v.moves.iter().map(|m| m.mv));
        line
    }
}
