//! The checks before the first game of a tuning run, in order: the parameters file, the engine
//! definition and the opponent's, the record format, the gains and the seed, the openings, the
//! engine's handshake and options, the opponent's handshake, and the state file (a new one, or
//! the one `--resume` continues, which must be of the same run); then the record file is opened
//! for appending. Errors here are usage errors,
//! except a failed handshake, and nothing is played.

use super::events::{TuneEvent, TuneObserver};
use super::params::{self, Param};
use super::spsa::Gains;
use super::state::{self, TuneIdentity, TuneState};
use super::{TuneError, TuneSettings};
use crate::arena::FileError;
use crate::arena::openings::{self, Opening};
use crate::client::config::EngineConfig;
use crate::client::process::{EngineProcess, EngineRegistry, Timeouts};
use crate::client::tc::TimeControl;
use crate::record::{Format, RecordWriter};
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A run checked and ready to play.
pub(super) struct Plan {
    /// The parameters.
    pub params: Vec<Param>,
    /// The tuned engine.
    pub conf: EngineConfig,
    /// The fixed opponent, if any.
    pub opponent: Option<EngineConfig>,
    /// The gain schedule.
    pub gains: Gains,
    /// The seed.
    pub seed: u64,
    /// The time control of both sides.
    pub tc: TimeControl,
    /// The openings, shuffled with the seed.
    pub openings: Vec<Opening>,
    /// The state to go on from.
    pub state: TuneState,
    /// The record file, open for appending.
    pub records: RecordWriter<BufWriter<File>>,
}

/// The parameters of the file `path`.
fn read_params(path: &Path) -> Result<Vec<Param>, TuneError> {
    let bytes = std::fs::read(path).map_err(|e| TuneError::ParamsFile(FileError::at(path)(e)))?;
    let text = crate::record::decode_text(&bytes);
    let list = params::parse(&text).map_err(|error| TuneError::Params { path: path.to_path_buf(), error })?;
    if list.is_empty() {
        return Err(TuneError::NoParams(path.to_path_buf()));
    }
    Ok(list)
}

/// The tuned engine: the `--engine` given, or hisha offering its search constants.
fn engine(settings: &TuneSettings) -> Result<EngineConfig, TuneError> {
    if settings.engine.is_empty() {
        let mut hisha = EngineConfig::hisha();
        hisha.args = vec!["usi".into(), "--tunable".into()];
        return Ok(hisha);
    }
    Ok(EngineConfig::from_spec(&settings.engine, &settings.engines_dir)?)
}

/// The fixed opponent of `--opponent`, if given; its command must exist.
fn opponent(settings: &TuneSettings) -> Result<Option<EngineConfig>, TuneError> {
    if settings.opponent.is_empty() {
        return Ok(None);
    }
    let conf = EngineConfig::from_spec(&settings.opponent, &settings.engines_dir)?;
    if !conf.command_found() {
        return Err(TuneError::MissingCommand { engine: conf.name.clone(), command: conf.command.clone() });
    }
    Ok(Some(conf))
}

/// `name (command)`: an engine as the state file names it.
fn described(conf: &EngineConfig) -> String {
    format!("{} ({})", conf.name, conf.command.display())
}

/// The openings, shuffled with the seed: the `--openings` file or the built-in ones.
fn load_openings(settings: &TuneSettings, seed: u64) -> Result<Vec<Opening>, TuneError> {
    let mut list = settings.openings.load()?;
    openings::shuffle(&mut list, seed);
    Ok(list)
}

/// Starts the engine once: it must complete its handshake and list every parameter as an option
/// (`params` is empty for the opponent, which needs only the handshake), within its handshake
/// timeout.
fn preflight(conf: &EngineConfig, params: &[Param], settings: &TuneSettings) -> Result<(), TuneError> {
    let t = settings.game.usi_timeout_of(conf);
    let timeouts = Timeouts { usiok: t, readyok: t };
    let p = EngineProcess::start(conf, timeouts, None, &EngineRegistry::default())
        .map_err(|e| TuneError::Handshake { engine: conf.name.clone(), why: e.to_string() })?;
    let listed = p.listed_options.clone();
    p.quit(Duration::from_millis(500));
    let names: Vec<String> =
        params.iter().filter(|q| !listed.iter().any(|l| l == &q.name)).map(|q| q.name.clone()).collect();
    if names.is_empty() {
        Ok(())
    } else {
        Err(TuneError::NotAnOption { engine: conf.name.clone(), names, offered: listed })
    }
}

/// The state to start from: the state file's with `--resume` (which must be of the same run),
/// else a new one (an earlier state file is kept as `NAME.1`, `NAME.2` …).
fn starting_state(
    settings: &TuneSettings,
    path: &Path,
    identity: TuneIdentity,
    events: &dyn TuneObserver,
) -> Result<TuneState, TuneError> {
    if !settings.resume {
        if path.exists() {
            let kept = (1..).map(|i| PathBuf::from(format!("{}.{i}", path.display()))).find(|p| !p.exists());
            let kept = kept.unwrap_or_default();
            std::fs::rename(path, &kept).map_err(FileError::at(path))?;
            events.event(TuneEvent::Notice(&format!("the earlier state file is kept as {}", kept.display())));
        }
        return Ok(TuneState::new(identity));
    }
    if !path.exists() {
        return Err(TuneError::NothingToResume(path.to_path_buf()));
    }
    let st = state::load(path)?;
    let differences = st.identity.differences(&identity);
    if !differences.is_empty() {
        return Err(TuneError::OtherRun { path: path.to_path_buf(), differences });
    }
    Ok(st)
}

/// Checks `settings` and prepares the run (see the module's documentation).
pub(super) fn plan(settings: &TuneSettings, events: &dyn TuneObserver) -> Result<Plan, TuneError> {
    let params = read_params(&settings.params)?;
    let conf = engine(settings)?;
    if !conf.command_found() {
        return Err(TuneError::MissingCommand { engine: conf.name.clone(), command: conf.command.clone() });
    }
    let opponent = opponent(settings)?;
    let format = match settings.format.or_else(|| settings.out.to_str().and_then(Format::from_path)) {
        Some(f) if f.one_game_per_file() => return Err(TuneError::OneGamePerFile(settings.out.clone())),
        Some(f) => f,
        None => return Err(TuneError::OutFormat(settings.out.clone())),
    };
    let gains = Gains {
        a: settings.a.unwrap_or(Gains::fishtest(settings.iterations).a),
        alpha: settings.alpha,
        gamma: settings.gamma,
        ..Gains::fishtest(settings.iterations)
    };
    let state_path = state::path_for(&settings.out);
    let earlier_seed = if settings.resume { state::load(&state_path).ok().map(|s| s.identity.seed) } else { None };
    let seed = settings.seed.or(earlier_seed).unwrap_or_else(rand::random);
    let tc = conf.tc.unwrap_or(settings.tc);
    let identity = TuneIdentity {
        params: params.clone(),
        gains,
        seed,
        engine: described(&conf),
        tc: tc.to_string(),
        opponent: opponent.as_ref().map(|o| match o.tc {
            Some(own) if own != tc => format!("{} {own}", described(o)),
            _ => described(o),
        }),
    };
    let openings = load_openings(settings, seed)?;
    preflight(&conf, &params, settings)?;
    if let Some(o) = &opponent {
        preflight(o, &[], settings)?;
    }
    let state = starting_state(settings, &state_path, identity, events)?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&settings.out)
        .map_err(FileError::at(&settings.out))?;
    let empty = file.metadata().map(|m| m.len() == 0).unwrap_or(true);
    let records = RecordWriter::new(BufWriter::with_capacity(1 << 20, file), format, empty);
    Ok(Plan { params, conf, opponent, gains, seed, tc, openings, state, records })
}
