//! The flags of how each game is played and judged, the same for `hisha match` and `hisha tune`
//! (flattened into both commands' arguments).

use hisha::arena::{GameSettings, ScoreRule};
use hisha::position::EnteringKingRule;

/// Adjudication and engine timeouts.
#[derive(Debug, clap::Args)]
pub struct GameArgs {
    /// Draw after this many plies (the side to move loses if it has no legal move then).
    #[arg(long, default_value_t = 320)]
    pub max_plies: u32,
    /// Resign adjudication `CP:PLIES`: both engines agree by CP for PLIES moves each.
    #[arg(long)]
    pub resign: Option<ScoreRule>,
    /// Draw adjudication `CP:PLIES`: both scores within ±CP for PLIES moves each.
    #[arg(long)]
    pub draw: Option<ScoreRule>,
    /// Milliseconds beyond the time allowance before a move loses on time (an engine's own
    /// `time_margin` overrides it).
    #[arg(long, default_value_t = 200)]
    pub time_margin: u64,
    /// Entering-king rule for declarations: NoEnteringKing, CSARule24, CSARule27.
    #[arg(long, default_value = "CSARule27")]
    pub entering_king_rule: EnteringKingRule,
    /// Seconds to wait for `usiok` and `readyok` (an engine's own `usi_timeout` overrides it).
    #[arg(long, default_value_t = 10)]
    pub usi_timeout: u64,
    /// Seconds an untimed (nodes/depth) move may take before the engine is deemed stalled.
    #[arg(long, default_value_t = 60)]
    pub stall_timeout: u64,
}

impl GameArgs {
    /// The library's settings of the same name.
    pub fn settings(self) -> GameSettings {
        let GameArgs { max_plies, resign, draw, time_margin, entering_king_rule, usi_timeout, stall_timeout } = self;
        GameSettings { max_plies, resign, draw, time_margin, entering_king_rule, usi_timeout, stall_timeout }
    }
}
