//! What the games of a match depend on — each engine's definition (command, arguments, folder,
//! options), each engine's time control, and the openings (their source, plies, seed and the
//! positions themselves) — recorded in the state file's header so that `--resume` refuses to mix
//! games of another match into one result. `--games` is not part of it: a resumed match may grow.

use super::openings::Opening;
use super::settings::MatchSettings;
use super::tournament::Tournament;
use crate::client::config::EngineConfig;
use crate::client::tc::TimeControl;

/// The settings the games of a match depend on, as the state file records them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchIdentity {
    /// Each engine's definition, in order: `COMMAND [ARG]… [dir=D] [option.X=V]…`.
    pub engines: Vec<String>,
    /// Each engine's time control, in order.
    pub time_controls: Vec<TimeControl>,
    /// The openings: `SOURCE, N plies[, seed S] #FINGERPRINT`.
    pub openings: String,
    /// How many openings there are (`None` in a state file of an older hisha); the fingerprint
    /// already tells them apart, so resuming does not compare it.
    pub opening_count: Option<usize>,
    /// The kind of tournament (`None`: a match of two engines).
    pub tournament: Option<Tournament>,
}

impl MatchIdentity {
    /// The identity of a match of `confs` (engines without a time control of their own play
    /// `settings.tc`) over `openings`.
    pub(crate) fn of(settings: &MatchSettings, confs: &[EngineConfig], openings: &[Opening]) -> MatchIdentity {
        let source = match (&settings.handicap, &settings.openings.file) {
            (Some(h), _) => format!("handicap {}", h.english()),
            (None, Some(path)) => path.display().to_string(),
            (None, None) => "built-in book/openings.psn".to_string(),
        };
        let seed = settings.seed.map(|s| format!(", seed {s}")).unwrap_or_default();
        MatchIdentity {
            engines: confs.iter().map(definition).collect(),
            time_controls: confs.iter().map(|c| c.tc.unwrap_or(settings.tc)).collect(),
            openings: format!("{source}, {} plies{seed} #{:016x}", settings.openings.plies, fingerprint(openings)),
            opening_count: Some(openings.len()),
            tournament: settings.tournament,
        }
    }

    /// The header fields `key=value` (tabs in values turned into blanks): `engine1`, `engine2`,
    /// … `tc1`, `tc2`, …, `openings`, `opening_count`, and `tournament` for a tournament.
    pub(crate) fn fields(&self) -> Vec<String> {
        let numbered = |key: &str, values: Vec<String>| -> Vec<(String, String)> {
            values.into_iter().enumerate().map(|(i, v)| (format!("{key}{}", i + 1), v)).collect()
        };
        let mut fields = numbered("engine", self.engines.clone());
        fields.extend(numbered("tc", self.time_controls.iter().map(ToString::to_string).collect()));
        fields.push(("openings".into(), self.openings.clone()));
        fields.extend(self.opening_count.map(|n| ("opening_count".to_string(), n.to_string())));
        fields.extend(self.tournament.map(|t| ("tournament".to_string(), t.to_string())));
        fields.into_iter().map(|(k, v)| format!("{k}={}", v.replace('\t', " "))).collect()
    }

    /// The identity in a header's `key=value` fields; `None` when one is missing (a state file
    /// written before hisha recorded them).
    pub(crate) fn from_fields<'a>(fields: impl Iterator<Item = (&'a str, &'a str)> + Clone) -> Option<MatchIdentity> {
        let get = |key: &str| fields.clone().find(|(k, _)| *k == key).map(|(_, v)| v.to_string());
        let engines: Vec<String> = (1..).map_while(|i| get(&format!("engine{i}"))).collect();
        let time_controls: Vec<TimeControl> =
            (1..=engines.len()).map(|i| get(&format!("tc{i}"))?.parse().ok()).collect::<Option<_>>()?;
        let tournament = match get("tournament") {
            Some(kind) => Some(kind.parse().ok()?),
            None => None,
        };
        let opening_count = get("opening_count").and_then(|n| n.parse().ok());
        let openings = get("openings")?;
        (engines.len() >= 2).then_some(MatchIdentity { engines, time_controls, openings, opening_count, tournament })
    }

    /// What differs from `recorded`, a line each (`names` the engines' names): empty when the
    /// games are of the same match.
    pub(crate) fn differences(&self, recorded: &MatchIdentity, names: &[&str]) -> Vec<String> {
        let mut out = Vec::new();
        let kind = |t: Option<Tournament>| t.map_or("a match".to_string(), |t| format!("a {t} tournament"));
        if self.tournament != recorded.tournament {
            out.push(format!("it was {}, now {}", kind(recorded.tournament), kind(self.tournament)));
        }
        for (i, name) in names.iter().enumerate() {
            let (Some(was), Some(now)) = (recorded.engines.get(i), self.engines.get(i)) else { continue };
            if was != now {
                out.push(format!("{name}: the engine was `{was}`, now `{now}`"));
            }
            let (Some(was), Some(now)) = (recorded.time_controls.get(i), self.time_controls.get(i)) else { continue };
            if was != now {
                out.push(format!("{name}: the time control was {was}, now {now}"));
            }
        }
        if self.openings != recorded.openings {
            out.push(format!("the openings were {}, now {}", recorded.openings, self.openings));
        }
        out
    }
}

/// An engine's definition as one line: command, arguments, folder and options, in order.
fn definition(c: &EngineConfig) -> String {
    let mut words = vec![c.command.display().to_string()];
    words.extend(c.args.iter().cloned());
    words.extend(c.dir.iter().map(|d| format!("dir={}", d.display())));
    words.extend(c.options.iter().map(|(k, v)| format!("option.{k}={v}")));
    words.join(" ")
}

/// FNV-1a over every opening's start, moves and name, in order: a hash that stays the same
/// across builds and platforms (unlike the standard library's).
fn fingerprint(openings: &[Opening]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes.iter().chain(b"\n") {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for o in openings {
        eat(o.start.sfen().as_bytes());
        eat(o.moves.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ").as_bytes());
        eat(o.name.as_bytes());
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Start;

    fn identity(tc: &str, opening_moves: &[&str]) -> MatchIdentity {
        let pos = crate::Position::startpos();
        let mut p = pos.clone();
        let mut moves = Vec::new();
        for m in opening_moves {
            let mv = p.parse_usi_move(m).expect("legal");
            p.do_move(mv);
            moves.push(mv);
        }
        let openings = [Opening { start: Start::default(), moves, name: "o:1".into() }];
        let mut c = EngineConfig::hisha();
        c.options.push(("USI_Hash".into(), "16".into()));
        let settings = crate::arena::settings::tests::settings(tc.parse().expect("tc"));
        MatchIdentity::of(&settings, &[c.clone(), c], &openings)
    }

    #[test]
    fn identities_round_trip_through_the_header_and_name_what_differs() {
        let a = identity("byoyomi=100", &["7g7f"]);
        let fields = a.fields();
        let pairs = fields.iter().filter_map(|f| f.split_once('='));
        assert_eq!(MatchIdentity::from_fields(pairs.clone()), Some(a.clone()));
        assert_eq!(a.opening_count, Some(1));
        let without_count = pairs.filter(|(k, _)| *k != "opening_count");
        let older = MatchIdentity::from_fields(without_count).expect("a header without the count");
        assert_eq!((older.opening_count, older.differences(&a, &["a", "b"])), (None, Vec::new()));
        assert_eq!(MatchIdentity::from_fields([("engine1", "x")].into_iter()), None, "an older header");
        assert_eq!(a.differences(&a, &["a", "b"]), Vec::<String>::new());
        let b = identity("nodes=2000", &["7g7f"]);
        assert_eq!(
            b.differences(&a, &["a", "b"]),
            [
                "a: the time control was byoyomi=100, now nodes=2000",
                "b: the time control was byoyomi=100, now nodes=2000"
            ]
        );
        let c = identity("byoyomi=100", &["2g2f"]);
        let diff = c.differences(&a, &["a", "b"]);
        assert_eq!(diff.len(), 1, "{diff:?}");
        assert!(diff[0].starts_with("the openings were built-in book/openings.psn, 24 plies #"), "{diff:?}");
        assert!(a.engines[0].ends_with(" option.USI_Hash=16"), "{}", a.engines[0]);
    }
}
