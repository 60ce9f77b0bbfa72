//! The header lines KIF and KI2 writers write, as Japanese GUIs write them (kif-csa.md §1): the
//! players, `開始日時`/`終了日時` with the time of day, `棋戦`, `場所`, `持ち時間` and `秒読み` in
//! Japanese (Kifu for Windows: `持ち時間：8時間` / `秒読み：60秒`), `戦型` only for a Japanese
//! opening name, then `手合割` or a board diagram and the summary comments. Tags with no KIF key
//! keep their own names (`Round：3`, `Opening：Yagura`): GUIs keep such lines, tsshogi as custom
//! data, and hisha reads them back as the same tags.

use super::board as kif_board;
use super::read::TAGS;
use crate::position::Handicap;
use crate::position::sfen::SfenError;
use crate::record::game::zoneless;
use crate::record::{GameRecord, Start, TimeControl};
use std::fmt::Write as _;

/// A duration in Japanese: `8時間`, `10分`, `1秒`, `1.5秒`, `1時間30分`.
fn duration(ms: u64) -> String {
    let (h, m, s, frac) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
    let mut out = String::new();
    if h > 0 {
        let _ = write!(out, "{h}時間");
    }
    if m > 0 {
        let _ = write!(out, "{m}分");
    }
    if frac > 0 {
        let digits = format!("{frac:03}");
        let _ = write!(out, "{s}.{}秒", digits.trim_end_matches('0'));
    } else if s > 0 || out.is_empty() {
        let _ = write!(out, "{s}秒");
    }
    out
}

/// `持ち時間` and `秒読み` for a time control both sides share: `各10分` (`なし` without main
/// time) with a Fischer increment in words, and the byoyomi (`st=MS` is sent as byoyomi).
fn shared_time(tc: TimeControl) -> (String, Option<String>) {
    match tc {
        TimeControl::Clock { time, inc, byoyomi } => {
            let mut main = if time == 0 { "なし".to_string() } else { format!("各{}", duration(time)) };
            if inc > 0 {
                let _ = write!(main, "（1手ごとに{}加算）", duration(inc));
            }
            (main, (byoyomi > 0).then(|| duration(byoyomi)))
        }
        TimeControl::MoveTime(ms) => ("なし".to_string(), Some(duration(ms))),
        TimeControl::Nodes(n) => (format!("1手{n}ノード"), None),
        TimeControl::Depth(d) => (format!("1手深さ{d}"), None),
    }
}

/// `先手持ち時間`/`後手持ち時間` for one side's control, byoyomi included: `10分+秒読み30秒`.
fn side_time(tc: TimeControl) -> String {
    match shared_time(tc) {
        (main, None) => main.trim_start_matches('各').to_string(),
        (main, Some(b)) if main == "なし" => format!("秒読み{b}"),
        (main, Some(b)) => format!("{}+秒読み{b}", main.trim_start_matches('各')),
    }
}

/// The header lines (`key：value`) for one tag, if it is written.
fn tag_lines(rec: &GameRecord, key: &str, value: &str, handicap: bool) -> Vec<(String, String)> {
    let one = |k: &str, v: &str| vec![(k.to_string(), v.to_string())];
    let time_control = |v: &str| v.parse::<TimeControl>().ok();
    match key {
        "Black" => one(if handicap { "下手" } else { "先手" }, value),
        "White" => one(if handicap { "上手" } else { "後手" }, value),
        "Date" | "GameStartTime" if key == "Date" && rec.tag("GameStartTime").is_some() => Vec::new(),
        "Date" | "GameStartTime" => one("開始日時", rec.start_datetime().unwrap_or(value)),
        "GameEndTime" => one("終了日時", zoneless(value)),
        "Opening" if value.is_ascii() => one("Opening", value),
        "TimeControl" => match time_control(value).map(shared_time) {
            Some((main, byoyomi)) => {
                let mut lines = one("持ち時間", &main);
                lines.extend(byoyomi.map(|b| ("秒読み".to_string(), b)));
                lines
            }
            None => one("持ち時間", value),
        },
        "BlackTimeControl" | "WhiteTimeControl" => {
            let k = if key == "BlackTimeControl" { "先手持ち時間" } else { "後手持ち時間" };
            one(k, &time_control(value).map_or_else(|| value.to_string(), side_time))
        }
        other => one(TAGS.iter().find(|(_, t)| *t == other).map_or(other, |(j, _)| j), value),
    }
}

/// Appends the header lines: tags, `手合割` or a board diagram, and the summary comments.
pub(crate) fn write(s: &mut String, rec: &GameRecord) -> Result<(), SfenError> {
    let handicap = match rec.start {
        Start::Handicap(h) => Some(h),
        Start::Sfen(_) => None,
    };
    let handicap_names = !matches!(handicap, Some(Handicap::Even) | None);
    for (k, v) in &rec.tags {
        for (key, value) in tag_lines(rec, k, v, handicap_names) {
            let _ = writeln!(s, "{key}：{value}");
        }
    }
    match handicap {
        Some(h) => {
            let _ = writeln!(s, "手合割：{}", h.kif_name());
        }
        None => {
            let start = rec.start.position()?;
            s.push_str(&kif_board::write(&start.to_setup()));
        }
    }
    for c in &rec.summary {
        for l in c.split('\n') {
            let _ = writeln!(s, "*{l}");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(tags: &[(&str, &str)]) -> String {
        let mut rec = GameRecord::default();
        for (k, v) in tags {
            rec.set_tag(k, *v);
        }
        let mut s = String::new();
        write(&mut s, &rec).expect("the even start");
        s
    }

    #[test]
    fn times_are_written_in_japanese_as_kifu_for_windows_does() {
        // Kifu for Windows Pro V7.20 writes `持ち時間：8時間` and `秒読み：60秒`.
        assert_eq!(header(&[("TimeControl", "byoyomi=1000")]), "持ち時間：なし\n秒読み：1秒\n手合割：平手\n");
        assert_eq!(
            header(&[("TimeControl", "time=28800000,byoyomi=60000")]),
            "持ち時間：各8時間\n秒読み：1分\n手合割：平手\n"
        );
        assert_eq!(
            header(&[("TimeControl", "time=600000,inc=1500")]),
            "持ち時間：各10分（1手ごとに1.5秒加算）\n手合割：平手\n"
        );
        assert_eq!(header(&[("TimeControl", "st=500")]), "持ち時間：なし\n秒読み：0.5秒\n手合割：平手\n");
        assert_eq!(header(&[("TimeControl", "nodes=20000")]), "持ち時間：1手20000ノード\n手合割：平手\n");
        assert_eq!(header(&[("TimeControl", "各2時間")]), "持ち時間：各2時間\n手合割：平手\n", "kept as read");
        let sides = header(&[("BlackTimeControl", "time=5400000,byoyomi=30000"), ("WhiteTimeControl", "byoyomi=1000")]);
        assert_eq!(sides, "先手持ち時間：1時間30分+秒読み30秒\n後手持ち時間：秒読み1秒\n手合割：平手\n");
    }

    #[test]
    fn dates_carry_the_time_of_day_and_english_names_keep_their_keys() {
        let tags = [
            ("Event", "hisha match"),
            ("Date", "2024/05/01"),
            ("Round", "3"),
            ("Opening", "Yagura"),
            ("GameStartTime", "2024/05/01 12:34:56 UTC"),
            ("GameEndTime", "2024/05/01 12:40:00 UTC"),
        ];
        let want = "棋戦：hisha match\nRound：3\nOpening：Yagura\n開始日時：2024/05/01 12:34:56\n終了日時：2024/05/01 12:40:00\n手合割：平手\n";
        assert_eq!(header(&tags), want);
        assert_eq!(
            header(&[("Date", "2024/05/01"), ("Opening", "矢倉")]),
            "開始日時：2024/05/01\n戦型：矢倉\n手合割：平手\n"
        );
    }
}
