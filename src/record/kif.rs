//! KIF (Kakinoki) records (kif-csa.md §1): headers with `：`, `手合割` or a board diagram, move lines
//! with `(m:ss/hh:mm:ss)` times, `*` comments (ShogiGUI-style `**対局` lines carry engine data),
//! terminal words, `変化：N手` variations. `.kif` is Shift_JIS, `.kifu` UTF-8; the encoding is
//! chosen by the caller ([`super::Format`]).

use super::builder::Builder;
use super::error::{RecordError, RecordErrorKind};
use super::{EngineInfo, GameRecord, MoveRecord, Score, Start, kif_board, kif_move, result_words};
use crate::position::{GameResult, Handicap, Position, ResultReason, Setup, Winner};
use crate::types::Color;

/// Header keys and the tags they map to.
const TAGS: [(&str, &str); 7] = [
    ("開始日時", "Date"),
    ("棋戦", "Event"),
    ("場所", "Site"),
    ("戦型", "Opening"),
    ("持ち時間", "TimeControl"),
    ("表題", "Round"),
    ("対局日", "Date"),
];

fn terminal(word: &str, stm: Color) -> Option<GameResult> {
    Some(match word {
        "投了" => GameResult::loss(stm, ResultReason::Resign),
        "詰み" | "詰" => GameResult::loss(stm, ResultReason::Checkmate),
        "切れ負け" | "時間切れ" => GameResult::loss(stm, ResultReason::Time),
        "千日手" => GameResult::draw(ResultReason::Repetition),
        "持将棋" | "最大手数超過" => GameResult::draw(ResultReason::MaxMoves),
        "入玉勝ち" | "勝ち宣言" => GameResult::win(stm, ResultReason::Declaration),
        "反則勝ち" | "王手連続千日手" => GameResult::win(stm, ResultReason::PerpetualCheck),
        "反則負け" => GameResult::loss(stm, ResultReason::IllegalMove),
        "中断" => GameResult { winner: Winner::Unfinished, reason: ResultReason::Interrupt },
        "不戦勝" => GameResult::win(stm, ResultReason::Disconnect),
        "不戦敗" => GameResult::loss(stm, ResultReason::Disconnect),
        _ => return None,
    })
}

fn terminal_word(r: &GameResult, stm: Color) -> Option<&'static str> {
    let stm_lost = r.winner == Winner::color(!stm);
    let stm_won = r.winner == Winner::color(stm);
    Some(match r.reason {
        ResultReason::Resign | ResultReason::Adjudication if stm_lost => "投了",
        ResultReason::Checkmate if stm_lost => "詰み",
        ResultReason::Time if stm_lost => "切れ負け",
        ResultReason::Repetition => "千日手",
        ResultReason::MaxMoves => "持将棋",
        ResultReason::Declaration if stm_won => "入玉勝ち",
        ResultReason::Declaration => "持将棋",
        ResultReason::PerpetualCheck | ResultReason::IllegalMove if stm_won => "反則勝ち",
        ResultReason::IllegalMove if stm_lost => "反則負け",
        ResultReason::Disconnect if stm_won => "不戦勝",
        ResultReason::Disconnect if stm_lost => "不戦敗",
        _ => "中断",
    })
}

/// Reads every game of KIF text (a new header block after moves starts a new game).
pub fn read(text: &str) -> impl Iterator<Item = Result<GameRecord, RecordError>> + '_ {
    split(text).into_iter().map(|lines| read_game(&lines))
}

fn is_move_line(l: &str) -> bool {
    let t = l.trim_start();
    t.chars().next().is_some_and(|c| c.is_ascii_digit()) && t.split_whitespace().nth(1).is_some()
}

fn is_header(l: &str) -> bool {
    !l.starts_with(['*', '#', '&'])
        && (l.contains('：') || l.contains(':'))
        && !is_move_line(l)
        && !l.starts_with("変化")
}

fn split(text: &str) -> Vec<Vec<(usize, &str)>> {
    let mut games = vec![Vec::new()];
    let mut seen_moves = false;
    for (i, l) in super::text::lines(text).enumerate() {
        if seen_moves && is_header(l) && !l.starts_with("まで") {
            games.push(Vec::new());
            seen_moves = false;
        }
        seen_moves |= is_move_line(l);
        if let Some(g) = games.last_mut() {
            g.push((i + 1, l));
        }
    }
    games.retain(|g| g.iter().any(|(_, l)| !l.trim().is_empty()));
    games
}

/// Parses `( 0:03/00:00:03)` into (move ms, total ms).
fn parse_times(s: &str) -> Option<(u64, u64)> {
    let inner = s.trim().strip_prefix('(')?.strip_suffix(')')?;
    let (a, b) = inner.split_once('/')?;
    let ms = |t: &str| -> Option<u64> {
        let parts: Vec<u64> = t.trim().split(':').map(|p| p.trim().parse().ok()).collect::<Option<_>>()?;
        Some(parts.iter().fold(0u64, |acc, &p| acc * 60 + p) * 1000)
    };
    Some((ms(a)?, ms(b)?))
}

/// Parses a `**対局 評価値 85 深さ 12 ノード数 1234 読み筋 ▲７六歩(77) △３四歩(33)` comment.
fn parse_engine(text: &str, pos_before: &Position) -> Option<EngineInfo> {
    let rest = text.strip_prefix("対局")?;
    let w: Vec<&str> = rest.split_whitespace().collect();
    let mut info = EngineInfo::default();
    let mut i = 0;
    while i < w.len() {
        match w[i] {
            "評価値" => {
                let v = w.get(i + 1)?;
                info.score = Some(if let Some(n) = v.strip_prefix("-詰") {
                    Score::Mate(-n.parse::<i32>().ok()?)
                } else if let Some(n) = v.strip_prefix("詰") {
                    Score::Mate(n.parse().ok()?)
                } else {
                    Score::Cp(v.parse().ok()?)
                });
                i += 2;
            }
            "深さ" => {
                info.depth = Some(w.get(i + 1)?.split('/').next()?.parse().ok()?);
                i += 2;
            }
            "ノード数" => {
                info.nodes = Some(w.get(i + 1)?.parse().ok()?);
                i += 2;
            }
            "読み筋" => {
                let mut pos = pos_before.clone();
                let mut tokens: Vec<String> = Vec::new();
                for t in &w[i + 1..] {
                    match tokens.last_mut() {
                        Some(last) if last.ends_with('同') => last.push_str(t),
                        _ => tokens.push(t.to_string()),
                    }
                }
                for t in &tokens {
                    let m = kif_move::read(&pos, t.trim_start_matches(['▲', '△']))?;
                    if !pos.is_legal(m) {
                        return None;
                    }
                    pos.do_move(m);
                    info.pv.push(m);
                }
                break;
            }
            _ => i += 1,
        }
    }
    Some(info)
}

fn engine_comment(e: &EngineInfo, pos_before: &Position) -> String {
    let mut s = "対局".to_string();
    match e.score {
        Some(Score::Cp(v)) => s.push_str(&format!(" 評価値 {v}")),
        Some(Score::Mate(v)) if v < 0 => s.push_str(&format!(" 評価値 -詰{}", -v)),
        Some(Score::Mate(v)) => s.push_str(&format!(" 評価値 詰{v}")),
        None => {}
    }
    if let Some(d) = e.depth {
        s.push_str(&format!(" 深さ {d}"));
    }
    if let Some(n) = e.nodes {
        s.push_str(&format!(" ノード数 {n}"));
    }
    if !e.pv.is_empty() {
        s.push_str(" 読み筋");
        let mut pos = pos_before.clone();
        for &m in &e.pv {
            if !pos.is_legal(m) {
                break;
            }
            let mark = if pos.side_to_move() == Color::Black { '▲' } else { '△' };
            // Full squares (no 同): a PV is split at blanks, and 同 is followed by one.
            s.push_str(&format!(" {mark}{}", kif_move::write_after(&pos, m, None)));
            pos.do_move(m);
        }
    }
    s
}

fn read_game(lines: &[(usize, &str)]) -> Result<GameRecord, RecordError> {
    let first = lines.first().map_or(1, |l| l.0);
    let mut b = Builder::new(Start::default()).map_err(|e| RecordError::syntax(first, 1, e))?;
    let mut setup: Option<Setup> = None;
    let mut moves_started = false;
    let mut ended = false;
    let mut note = None;
    let mut pending_engine: Vec<(usize, String)> = Vec::new();
    for &(n, raw) in lines {
        let line = raw.trim_end();
        if let Some(n_moves) = line.strip_prefix("手数＝").or_else(|| line.strip_prefix("手数=")) {
            let digits: String = n_moves.chars().take_while(char::is_ascii_digit).collect();
            if let Ok(k) = digits.parse::<u32>() {
                setup.get_or_insert_with(Setup::default).move_number = k + 1;
            }
            continue;
        }
        if line.is_empty() || line.starts_with('&') || line.starts_with("手数") || line.starts_with("まで") {
            continue;
        }
        if let Some(rest) = line.strip_prefix('#') {
            if let Some(r) = result_words::parse_note(rest) {
                note = Some(r);
            }
            continue;
        }
        if let Some(c) = line.strip_prefix('*') {
            if let Some(engine) = c.strip_prefix('*') {
                pending_engine.push((n, engine.to_string()));
            } else if !ended || !b.on_main_line() {
                b.comment(c.to_string());
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("変化：").or_else(|| line.strip_prefix("変化:")) {
            let ply: usize = rest
                .trim_end_matches('手')
                .trim()
                .parse()
                .map_err(|_| RecordError::syntax(n, 1, format!("bad variation line {line:?}")))?;
            b.start_variation(ply).map_err(|e| RecordError::syntax(n, 1, e))?;
            ended = false;
            continue;
        }
        // Board diagram parts.
        if !moves_started {
            if let Some(v) = line.strip_prefix("後手の持駒：").or_else(|| line.strip_prefix("上手の持駒："))
            {
                setup.get_or_insert_with(Setup::default).hands[1] =
                    kif_board::read_hand(v).ok_or_else(|| RecordError::syntax(n, 7, "bad hand"))?;
                continue;
            }
            if let Some(v) = line.strip_prefix("先手の持駒：").or_else(|| line.strip_prefix("下手の持駒："))
            {
                setup.get_or_insert_with(Setup::default).hands[0] =
                    kif_board::read_hand(v).ok_or_else(|| RecordError::syntax(n, 7, "bad hand"))?;
                continue;
            }
            if line.starts_with('|') {
                if !kif_board::read_row(line, setup.get_or_insert_with(Setup::default)) {
                    return Err(RecordError::syntax(n, 1, "bad board row"));
                }
                continue;
            }
            if line.starts_with('+') || line.starts_with("  ９") || line.trim_start().starts_with('９') {
                continue;
            }
            if line == "後手番" || line == "上手番" {
                setup.get_or_insert_with(Setup::default).side_to_move = Color::White;
                continue;
            }
            if line == "先手番" || line == "下手番" {
                continue;
            }
        }
        if is_move_line(line) {
            if !moves_started {
                moves_started = true;
                apply_setup(&mut b, setup.take(), n)?;
            }
            flush_engine(&mut b, &mut pending_engine);
            let t = line.trim_start();
            let col = line.chars().count() - t.chars().count() + 1;
            let (_, rest) = t.split_at(t.find(char::is_whitespace).unwrap_or(t.len()));
            let rest = rest.trim_start();
            let (text, times) = match rest.rfind('(') {
                Some(i) if rest[i..].contains('/') => (rest[..i].trim_end(), Some(&rest[i..])),
                _ => (rest.trim_end(), None),
            };
            let text = text.trim_end_matches('+').trim_end();
            if let Some(r) = terminal(text, b.position().side_to_move()) {
                b.set_result(r);
                ended = true;
                continue;
            }
            if ended && b.on_main_line() {
                return Err(RecordError::syntax(n, col, format!("move {text:?} after the end of the game")));
            }
            let ply = b.ply() + 1;
            let m = kif_move::read(b.position(), text)
                .ok_or_else(|| RecordError::syntax(n, col, format!("not a KIF move: {text:?}")))?;
            b.position().check_move(m).map_err(|rule| {
                RecordError::new(n, col, RecordErrorKind::IllegalMove { ply, text: text.to_string(), rule: Some(rule) })
            })?;
            b.push(m);
            if let Some((t, total)) = times.and_then(parse_times) {
                if let Some(last) = b.last_move_mut() {
                    last.time_ms = Some(t);
                    last.total_ms = Some(total);
                }
            }
            continue;
        }
        // Header line.
        if let Some((key, value)) = line.split_once('：').or_else(|| line.split_once(':')) {
            let value = value.trim();
            match key.trim() {
                "手合割" => {
                    if value != "その他" {
                        let h: Handicap = value.parse().map_err(|e: crate::position::ParseHandicapError| {
                            RecordError::new(n, 1, RecordErrorKind::BadPosition(e.to_string()))
                        })?;
                        b.set_start(Start::Handicap(h)).map_err(|e| RecordError::syntax(n, 1, e))?;
                    }
                }
                "先手" | "下手" => b.tag("Black", value),
                "後手" | "上手" => b.tag("White", value),
                k => match TAGS.iter().find(|(j, _)| *j == k) {
                    Some((_, tag)) => b.tag(tag, value),
                    None => b.tag(k, value),
                },
            }
            continue;
        }
        return Err(RecordError::syntax(n, 1, format!("unexpected line {line:?}")));
    }
    flush_engine(&mut b, &mut pending_engine);
    apply_setup(&mut b, setup.take(), lines.last().map_or(first, |l| l.0))?;
    let mut rec = b.finish();
    if note.is_some() {
        rec.result = note;
    }
    Ok(rec)
}

/// Makes a board diagram read so far the start position.
fn apply_setup(b: &mut Builder, setup: Option<Setup>, n: usize) -> Result<(), RecordError> {
    let Some(s) = setup else { return Ok(()) };
    let bad = |e: String| RecordError::new(n, 1, RecordErrorKind::BadPosition(e));
    let pos = Position::from_setup(&s).map_err(|e| bad(e.to_string()))?;
    b.set_start(Start::from_sfen(&pos.to_sfen()).map_err(|e| bad(e.to_string()))?).map_err(bad)
}

/// Engine lines (`**…`) belong to the move before them; they are parsed once that move's
/// position is known.
fn flush_engine(b: &mut Builder, pending: &mut Vec<(usize, String)>) {
    for (_, text) in pending.drain(..) {
        let mut before = b.position().clone();
        before.undo_move();
        match (parse_engine(&text, &before), b.last_move_mut()) {
            (Some(info), Some(m)) if m.engine.is_empty() => m.engine = info,
            _ => b.comment(format!("*{text}")),
        }
    }
}

fn times_text(m: &MoveRecord) -> String {
    let t = m.time_ms.unwrap_or(0) / 1000;
    let total = m.total_ms.unwrap_or(0) / 1000;
    format!("({:>2}:{:02}/{:02}:{:02}:{:02})", t / 60, t % 60, total / 3600, total / 60 % 60, total % 60)
}

/// Pads KIF move text to a fixed display width (full-width characters count two columns).
fn pad(text: &str, width: usize) -> String {
    let w: usize = text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
    format!("{text}{}", " ".repeat(width.saturating_sub(w)))
}

fn write_moves(s: &mut String, pos: &Position, first_ply: usize, moves: &[MoveRecord]) -> Color {
    let mut pos = pos.clone();
    for (i, m) in moves.iter().enumerate() {
        s.push_str(&format!("{:>4} {} {}\n", first_ply + i, pad(&kif_move::write(&pos, m.mv), 14), times_text(m)));
        if !m.engine.is_empty() {
            s.push_str(&format!("**{}\n", engine_comment(&m.engine, &pos)));
        }
        for c in &m.comments {
            for l in c.lines() {
                s.push_str(&format!("*{l}\n"));
            }
        }
        pos.do_move(m.mv);
    }
    pos.side_to_move()
}

/// The KIF text of one game (UTF-8; `version_line` adds `#KIF version=2.0 encoding=UTF-8`).
pub fn to_text(rec: &GameRecord, version_line: bool) -> Result<String, String> {
    let mut s = String::new();
    if version_line {
        s.push_str("#KIF version=2.0 encoding=UTF-8\n");
    }
    let handicap = match rec.start {
        Start::Handicap(h) => Some(h),
        Start::Sfen(_) => None,
    };
    let (black_key, white_key) = match handicap {
        Some(Handicap::Even) | None => ("先手", "後手"),
        Some(_) => ("下手", "上手"),
    };
    for (k, v) in &rec.tags {
        let key = match k.as_str() {
            "Black" => black_key,
            "White" => white_key,
            other => TAGS.iter().find(|(_, t)| *t == other).map_or(other, |(j, _)| j),
        };
        s.push_str(&format!("{key}：{v}\n"));
    }
    let start = rec.start.position().map_err(|e| e.to_string())?;
    match handicap {
        Some(h) => s.push_str(&format!("手合割：{}\n", h.kif_name())),
        None => s.push_str(&kif_board::write(&start.to_setup())),
    }
    for c in &rec.summary {
        for l in c.lines() {
            s.push_str(&format!("*{l}\n"));
        }
    }
    s.push_str("手数----指手---------消費時間--\n");
    let stm = write_moves(&mut s, &start, 1, &rec.moves);
    if let Some(r) = rec.result {
        let word = terminal_word(&r, stm).unwrap_or("中断");
        s.push_str(&format!("{:>4} {} {}\n", rec.moves.len() + 1, pad(word, 14), "( 0:00/00:00:00)"));
        if terminal(word, stm) != Some(r) {
            s.push_str(&format!("#{}\n", result_words::note(&r)));
        }
    }
    for (i, v) in rec.variations.iter().enumerate() {
        let mut pos = start.clone();
        for m in rec.variation_line(i).iter().take(v.ply.saturating_sub(1)) {
            pos.do_move(*m);
        }
        s.push_str(&format!("\n変化：{}手\n", v.ply));
        write_moves(&mut s, &pos, v.ply, &v.moves);
    }
    s.push('\n');
    Ok(s)
}
