//! The search's tunable constants: every margin, depth limit and reduction term the node search,
//! quiescence and the root's aspiration windows decide with, each named, with its default and
//! the range a tuner may move it in (as YaneuraOu's tuning builds expose theirs).
//!
//! The values are process-wide (every search thread reads the same ones) and are changed only
//! through [`set`], which the USI `setoption` of a tunable name calls; `hisha bench` and every
//! search use the defaults until then. Each value is one relaxed atomic load where it is used.

use std::fmt;
use std::sync::atomic::{AtomicI32, Ordering};

/// One tunable constant: its name (the USI option's), default and allowed range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The name, as the USI option and a tuner's parameter file spell it.
    pub name: &'static str,
    /// The value the search uses unless told otherwise.
    pub default: i32,
    /// The smallest allowed value.
    pub min: i32,
    /// The largest allowed value.
    pub max: i32,
}

/// Why [`set`] refused a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// No tunable constant has this name.
    Unknown(String),
    /// The value lies outside the constant's range.
    OutOfRange {
        /// The constant.
        name: &'static str,
        /// The refused value.
        value: i32,
        /// Its smallest allowed value.
        min: i32,
        /// Its largest allowed value.
        max: i32,
    },
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::Unknown(name) => write!(f, "no tunable search constant is named {name}"),
            ParamError::OutOfRange { name, value, min, max } => {
                write!(f, "{name} must lie in {min}..={max}, not {value}")
            }
        }
    }
}

impl std::error::Error for ParamError {}

/// Declares the constants: an index enum, the table of [`Param`]s, the current values and one
/// accessor function per constant.
macro_rules! tunable {
    ($( $(#[doc = $doc:literal])+ $name:ident = $default:literal in $min:literal..=$max:literal; )+) => {
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy)]
        enum Id { $( $name, )+ }

        /// Every tunable constant, in the order the search's steps use them.
        pub const PARAMS: &[Param] = &[ $( Param { name: stringify!($name), default: $default, min: $min, max: $max }, )+ ];

        static VALUES: [AtomicI32; PARAMS.len()] = [ $( AtomicI32::new($default), )+ ];

        $(
            $(#[doc = $doc])+
            #[inline(always)]
            pub(crate) fn $name() -> i32 {
                VALUES[Id::$name as usize].load(Ordering::Relaxed)
            }
        )+
    };
}

tunable! {
    /// Reverse futility pruning: the deepest depth it prunes at.
    rfp_depth = 6 in 1..=20;
    /// Reverse futility pruning: the margin a ply of depth adds.
    rfp_margin = 154 in 20..=400;
    /// Null move: the shallowest depth it is tried at.
    nmp_depth = 3 in 1..=10;
    /// Null move: the reduction's constant part.
    nmp_base = 3 in 1..=10;
    /// Null move: one more ply of reduction for every this many plies of depth.
    nmp_depth_divisor = 4 in 1..=16;
    /// Null move: one more ply of reduction for every this much of eval above beta.
    nmp_eval_divisor = 250 in 50..=1000;
    /// Null move: at most this many plies for the eval above beta.
    nmp_eval_max = 3 in 0..=6;
    /// No table move: the depth from which the node is searched a ply shallower.
    iir_depth = 4 in 2..=12;
    /// Non-PV nodes look for a mate in one from this depth on.
    mate_one_depth = 6 in 1..=20;
    /// Shallower non-PV nodes look for a mate in one by a contact check from this depth on (at
    /// or above `mate_one_depth`: never), after reverse futility pruning. With quiescence's
    /// probe it gained +34 Elo at node odds standing for equal time (the probes cost 7 % more
    /// instructions a node; see the search README).
    contact_mate_depth = 1 in 1..=20;
    /// Quiescence nodes not in check and not cut by standing pat look for a mate in one by a
    /// contact check (1) or not (0; see `contact_mate_depth`).
    qsearch_contact_mate = 1 in 0..=1;
    /// Late-move reductions: the shallowest depth reduced.
    lmr_depth = 3 in 2..=6;
    /// Late-move reductions: moves searched before the first one reduced (Stockfish reduces
    /// from the second).
    lmr_searched = 2 in 1..=6;
    /// Late-move reductions: the formula's constant, in 1/1024 ply.
    lmr_base = 1024 in 0..=2048;
    /// Late-move reductions: ln(depth) × ln(move number) is divided by this / 100.
    lmr_divisor = 176 in 100..=400;
    /// Late-move reductions: a ply less for every this much history.
    lmr_history_divisor = 6000 in 1000..=20000;
    /// Late-move reductions: more at a node expected to fail high (a cut node), in 1/1024 ply.
    lmr_cut_node = 362 in 0..=6144;
    /// Late-move reductions: more where the position is not improving, in 1/1024 ply.
    lmr_not_improving = 850 in 0..=4096;
    /// Late-move reductions: more where the position is not improving, in 1/512 of the
    /// formula's log product, beside `lmr_not_improving` (YaneuraOu's 206 with no constant;
    /// 0, the default: off).
    lmr_not_improving_scale = 0 in 0..=512;
    /// Late-move reductions: less for each move searched before this one, in 1/1024 ply
    /// (YaneuraOu's 65 beside a larger constant; 0, the default: off).
    lmr_move_count = 0 in 0..=256;
    /// Late-move reductions: scaled up at nodes expected to fail low (neither PV nor cut) by
    /// this / (256·depth + 260) (YaneuraOu's 273; 0, the default: off).
    lmr_all_node_scale = 0 in 0..=1024;
    /// Late-move reductions: less at a principal-variation node, in 1/1024 ply.
    lmr_pv_node = 1123 in 0..=4096;
    /// Late-move reductions: less for a killer move, in 1/1024 ply.
    lmr_killer = 1348 in 0..=4096;
    /// Late-move reductions: less for a quiet move that gives check, in 1/1024 ply.
    lmr_quiet_check = 1183 in 0..=4096;
    /// Move-count pruning: the deepest depth it prunes at.
    lmp_depth = 4 in 1..=12;
    /// Move-count pruning: moves kept at any depth (not improving: half).
    lmp_base = 4 in 1..=16;
    /// Move-count pruning: moves kept per squared ply of depth (not improving: half).
    lmp_depth_squared = 2 in 1..=8;
    /// Futility pruning of quiet moves: the deepest depth it prunes at.
    futility_depth = 5 in 1..=14;
    /// Futility pruning of quiet moves: the margin's constant part.
    futility_base = 120 in 0..=400;
    /// Futility pruning of quiet moves: the margin a ply of depth adds.
    futility_margin = 198 in 30..=400;
    /// Futility pruning of quiet moves: moves with at least this much history are kept.
    futility_history = 8000 in 0..=30000;
    /// History pruning: the deepest depth it prunes at.
    history_prune_depth = 3 in 1..=10;
    /// History pruning: quiet moves below minus this much history per ply of depth are pruned.
    history_prune_margin = 6000 in 1000..=20000;
    /// SEE pruning: the deepest depth it prunes at.
    see_depth = 6 in 1..=14;
    /// SEE pruning of quiet moves: the material they may lose per squared ply of depth.
    see_quiet_margin = 40 in 5..=150;
    /// SEE pruning of checks and losing captures: the material they may lose per ply of depth.
    see_tactical_margin = 200 in 50..=600;
    /// Futility pruning of captures and promotions that do not check: only where the move's
    /// late-move-reduced depth (which may be negative) is below this. This and the three below
    /// are YaneuraOu's values (yaneuraou-search.cpp, step 14), on the same centipawn scale.
    capture_futility_depth = 7 in 0..=20;
    /// Futility pruning of captures: the margin's constant part (beyond the captured piece).
    capture_futility_base = 218 in 0..=800;
    /// Futility pruning of captures: the margin a ply of reduced depth adds.
    capture_futility_margin = 223 in 0..=800;
    /// Futility pruning of captures: the margin the capture history adds, per 1024 of it.
    capture_futility_history = 131 in 0..=1024;
    /// Checks are extended up to this depth (deeper only when SEE does not lose material).
    check_extension_depth = 6 in 0..=20;
    /// Singular extension: the shallowest depth it is tried at.
    singular_depth = 7 in 4..=14;
    /// Singular extension: the table's entry may be this many plies shallower than the node.
    singular_tt_depth = 3 in 1..=8;
    /// Singular extension: the excluded search's beta lies this much per ply below the table's score.
    singular_margin = 2 in 1..=8;
    /// History bonus of a cut-off move: this much per squared ply of depth.
    history_bonus_depth_squared = 32 in 4..=128;
    /// History bonus of a cut-off move: its constant part.
    history_bonus_base = 64 in 0..=512;
    /// History bonus of a cut-off move: at most this much.
    history_bonus_max = 4000 in 500..=16000;
    /// Quiescence: a capture is skipped when even its gain leaves the score this far below alpha.
    qsearch_futility = 200 in 0..=600;
    /// Quiescence: what a promotion is counted as gaining for that test.
    qsearch_promotion_gain = 500 in 0..=1500;
    /// The root's mate probe: its share of the search's node budget or thinking time, per mille
    /// (the solver's nodes counted at 200 a millisecond); 0: no probe.
    root_mate_share = 50 in 0..=200;
    /// Aspiration windows: the first half-width around the previous score.
    aspiration_delta = 40 in 5..=200;
    /// Aspiration windows: what a failed window's half-width grows by, beyond half of itself.
    aspiration_growth = 10 in 0..=100;
}

/// The constant named `name`, if there is one.
pub fn find(name: &str) -> Option<&'static Param> {
    index_of(name).ok().map(|i| &PARAMS[i])
}

/// The current value of the constant named `name`.
pub fn get(name: &str) -> Result<i32, ParamError> {
    let index = index_of(name)?;
    Ok(VALUES[index].load(Ordering::Relaxed))
}

/// Gives the constant named `name` (any letter case) the value `value` for every later search,
/// if it lies in the constant's range.
pub fn set(name: &str, value: i32) -> Result<(), ParamError> {
    let index = index_of(name)?;
    let p = &PARAMS[index];
    if !(p.min..=p.max).contains(&value) {
        return Err(ParamError::OutOfRange { name: p.name, value, min: p.min, max: p.max });
    }
    VALUES[index].store(value, Ordering::Relaxed);
    Ok(())
}

fn index_of(name: &str) -> Result<usize, ParamError> {
    PARAMS.iter().position(|p| p.name.eq_ignore_ascii_case(name)).ok_or_else(|| ParamError::Unknown(name.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_lies_in_its_range_and_names_are_distinct() {
        for (i, p) in PARAMS.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{p:?}");
            assert!(PARAMS[..i].iter().all(|q| !q.name.eq_ignore_ascii_case(p.name)), "{} twice", p.name);
        }
    }

    #[test]
    fn set_refuses_unknown_names_and_values_out_of_range_and_keeps_the_value() {
        // Only refused calls and a call that sets the default: the values are process-wide, and
        // other tests search in parallel (a changed value is tested through USI in tests/usi.rs).
        assert_eq!(set("no_such_constant", 1), Err(ParamError::Unknown("no_such_constant".into())));
        let p = find("RFP_MARGIN").expect("case-insensitive lookup");
        assert_eq!(
            set(p.name, p.max + 1),
            Err(ParamError::OutOfRange { name: p.name, value: p.max + 1, min: p.min, max: p.max })
        );
        assert_eq!(get(p.name), Ok(p.default));
        assert_eq!(rfp_margin(), p.default, "the accessor reads the table");
        assert_eq!(set(p.name, p.default), Ok(()));
    }
}
