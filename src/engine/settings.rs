//! What the engine can be told to do differently: table size, search and time settings, limits
//! applied to every `go`, and the book. Typed values only; the protocol that sets them (the USI
//! options, `usi::options`) maps its names and texts onto these fields.

use super::EvalSource;
use crate::book::Pick;
use crate::eval::Value;
use crate::position::EnteringKingRule;
use crate::search::{SearchOptions, TimeOptions};
use std::path::PathBuf;

/// Where the book comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum BookSource {
    /// No book.
    None,
    /// The book hisha carries ([`crate::book::BUILTIN`]).
    Builtin,
    /// A YaneuraOu-format book file.
    File(PathBuf),
}

/// How the engine uses its book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BookSettings {
    /// The book to load (on [`super::Engine::prepare`]).
    pub(crate) source: BookSource,
    /// Book moves are played at all.
    pub(crate) enabled: bool,
    /// The book is used up to this move number.
    pub(crate) last_move_number: u32,
    /// How a move is chosen among the book moves of a position.
    pub(crate) pick: Pick,
    /// Percent of book positions where the engine searches instead (variety).
    pub(crate) ignore_percent: u32,
}

/// Everything the engine's behaviour depends on besides the position and the `go` limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Settings {
    /// Transposition table (and mate table) size in MiB, applied when the engine is prepared or a
    /// new game starts.
    pub(crate) hash_mib: usize,
    /// Search threads (Lazy SMP), started when set and when the engine is prepared.
    pub(crate) threads: usize,
    /// Number of best lines reported.
    pub(crate) multipv: usize,
    /// Score of a draw for the engine, in centipawns.
    pub(crate) draw_value: Value,
    /// Entering-king declaration rule.
    pub(crate) entering_king_rule: EnteringKingRule,
    /// Game length in plies after which the game is a draw (0 = none).
    pub(crate) max_moves_to_draw: u32,
    /// Resign at or below minus this score (0 = only when mated).
    pub(crate) resign_value: Value,
    /// Milliseconds kept back from every deadline.
    pub(crate) network_delay: u64,
    /// Further milliseconds kept back when the move is played on byoyomi.
    pub(crate) byoyomi_margin: u64,
    /// Never plan to think less than this (ms).
    pub(crate) minimum_thinking_time: u64,
    /// Percent scaling of the main-time share per move.
    pub(crate) slow_mover: u64,
    /// Maximum depth of every search.
    pub(crate) depth_limit: Option<u32>,
    /// Maximum nodes of every search.
    pub(crate) nodes_limit: Option<u64>,
    /// The book.
    pub(crate) book: BookSettings,
    /// The evaluation (loaded when the engine is prepared).
    pub(crate) eval: EvalSource,
}

impl Settings {
    /// The search settings of one move; `on_byoyomi` says whether it is played on byoyomi.
    pub(crate) fn search_options(&self, on_byoyomi: bool) -> SearchOptions {
        let margin = if on_byoyomi { self.byoyomi_margin } else { 0 };
        SearchOptions {
            multipv: self.multipv.max(1),
            draw_value: self.draw_value,
            entering_king_rule: self.entering_king_rule,
            max_moves_to_draw: self.max_moves_to_draw,
            resign_value: self.resign_value,
            time: TimeOptions {
                network_delay: self.network_delay + margin,
                minimum_thinking_time: self.minimum_thinking_time,
                slow_mover: self.slow_mover,
            },
        }
    }
}

#[cfg(test)]
impl Settings {
    /// Settings for unit tests: a 1 MiB table, no book, no limits, the default time settings.
    pub(crate) fn for_tests() -> Settings {
        Settings {
            hash_mib: 1,
            threads: 1,
            multipv: 1,
            draw_value: 0,
            entering_king_rule: EnteringKingRule::Point27,
            max_moves_to_draw: 0,
            resign_value: 0,
            network_delay: 60,
            byoyomi_margin: 0,
            minimum_thinking_time: 20,
            slow_mover: 100,
            depth_limit: None,
            nodes_limit: None,
            book: BookSettings {
                source: BookSource::None,
                enabled: false,
                last_move_number: 0,
                pick: Pick::Best,
                ignore_percent: 0,
            },
            eval: EvalSource::Builtin,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byoyomi_margin_adds_to_the_network_delay_on_byoyomi_only() {
        let s = Settings { network_delay: 100, byoyomi_margin: 50, ..Settings::for_tests() };
        assert_eq!(s.search_options(true).time.network_delay, 150);
        assert_eq!(s.search_options(false).time.network_delay, 100);
    }
}
