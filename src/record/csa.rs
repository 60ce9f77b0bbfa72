//! CSA standard records, V2.2 and V3.0 (kif-csa.md §2): several games per file separated by `/`,
//! `N+`/`N-` names, `$` info, `PI` with removed pieces or `P1`–`P9` plus `P+`/`P-` hand lines,
//! moves `+7776FU` with `T` times, `%` terminal words, `'` comments (`'**` lines carry floodgate
//! style engine data, the score from Black's point of view). The writer writes V2.2.

use super::builder::Builder;
use super::error::{RecordError, RecordErrorKind};
use super::{EngineInfo, GameRecord, Score, Start, result_words};
use crate::position::{GameResult, Position, ResultReason, Setup, Winner};
use crate::types::{Color, File, Hand, Move, MoveKind, Piece, PieceKind, Rank, Square};

const CODES: [(PieceKind, &str); 14] = [
    (PieceKind::Pawn, "FU"),
    (PieceKind::Lance, "KY"),
    (PieceKind::Knight, "KE"),
    (PieceKind::Silver, "GI"),
    (PieceKind::Gold, "KI"),
    (PieceKind::Bishop, "KA"),
    (PieceKind::Rook, "HI"),
    (PieceKind::King, "OU"),
    (PieceKind::ProPawn, "TO"),
    (PieceKind::ProLance, "NY"),
    (PieceKind::ProKnight, "NK"),
    (PieceKind::ProSilver, "NG"),
    (PieceKind::Horse, "UM"),
    (PieceKind::Dragon, "RY"),
];

fn code(k: PieceKind) -> &'static str {
    CODES.iter().find(|(x, _)| *x == k).map_or("FU", |(_, c)| c)
}

fn kind_of(c: &str) -> Option<PieceKind> {
    CODES.iter().find(|(_, x)| *x == c).map(|(k, _)| *k)
}

fn square(f: u8, r: u8) -> Option<Square> {
    Some(Square::new(File::new(f)?, Rank::from_index((r as usize).checked_sub(1)?)?))
}

fn sq_text(sq: Square) -> String {
    format!("{}{}", sq.file().number(), sq.rank().number())
}

/// The CSA text of a legal move (without the sign).
fn move_body(pos: &Position, m: Move) -> String {
    match m.kind() {
        MoveKind::Drop { kind, to } => format!("00{}{}", sq_text(to), code(kind)),
        MoveKind::Normal { from, to, promote } => {
            let k = pos.piece_on(from).map_or(PieceKind::Pawn, |p| p.kind());
            let k = if promote { k.promoted().unwrap_or(k) } else { k };
            format!("{}{}{}", sq_text(from), sq_text(to), code(k))
        }
    }
}

fn sign(c: Color) -> char {
    if c == Color::Black { '+' } else { '-' }
}

/// Reads `+7776FU` in `pos`.
fn read_move(pos: &Position, text: &str) -> Option<Move> {
    let b = text.as_bytes();
    if b.len() != 7 || !text.is_ascii() {
        return None;
    }
    let c = match b[0] {
        b'+' => Color::Black,
        b'-' => Color::White,
        _ => return None,
    };
    if c != pos.side_to_move() {
        return None;
    }
    let d = |i: usize| (b[i] as char).to_digit(10).map(|x| x as u8);
    let to = square(d(3)?, d(4)?)?;
    let kind = kind_of(&text[5..7])?;
    if d(1)? == 0 && d(2)? == 0 {
        return kind.is_hand_kind().then(|| Move::drop(kind, to));
    }
    let from = square(d(1)?, d(2)?)?;
    let before = pos.piece_on(from)?.kind();
    let promote = before != kind && before.promoted() == Some(kind);
    if !promote && before != kind {
        return None;
    }
    Some(Move::normal(from, to, promote))
}

fn terminal(word: &str, stm: Color) -> Option<GameResult> {
    Some(match word {
        "%TORYO" => GameResult::loss(stm, ResultReason::Resign),
        "%TSUMI" => GameResult::loss(stm, ResultReason::Checkmate),
        "%TIME_UP" => GameResult::loss(stm, ResultReason::Time),
        "%SENNICHITE" => GameResult::draw(ResultReason::Repetition),
        "%ILLEGAL_MOVE" => GameResult::loss(stm, ResultReason::IllegalMove),
        "%+ILLEGAL_ACTION" => GameResult::win(Color::White, ResultReason::IllegalMove),
        "%-ILLEGAL_ACTION" => GameResult::win(Color::Black, ResultReason::IllegalMove),
        "%JISHOGI" | "%MAX_MOVES" => GameResult::draw(ResultReason::MaxMoves),
        "%KACHI" => GameResult::win(stm, ResultReason::Declaration),
        "%HIKIWAKE" => GameResult::draw(ResultReason::Adjudication),
        "%CHUDAN" | "%ERROR" | "%MATTA" => GameResult { winner: Winner::Unfinished, reason: ResultReason::Interrupt },
        _ => return None,
    })
}

fn terminal_word(r: &GameResult, stm: Color) -> &'static str {
    let stm_lost = r.winner == Winner::color(!stm);
    let stm_won = r.winner == Winner::color(stm);
    match r.reason {
        ResultReason::Resign | ResultReason::Adjudication if stm_lost => "%TORYO",
        ResultReason::Checkmate if stm_lost => "%TSUMI",
        ResultReason::Time if stm_lost => "%TIME_UP",
        ResultReason::Repetition => "%SENNICHITE",
        ResultReason::MaxMoves => "%JISHOGI",
        ResultReason::Declaration if stm_won => "%KACHI",
        ResultReason::IllegalMove if stm_lost => "%ILLEGAL_MOVE",
        ResultReason::PerpetualCheck | ResultReason::IllegalMove if stm_won => {
            if stm == Color::Black {
                "%-ILLEGAL_ACTION"
            } else {
                "%+ILLEGAL_ACTION"
            }
        }
        ResultReason::Adjudication if r.winner == Winner::Draw => "%HIKIWAKE",
        _ => "%CHUDAN",
    }
}

/// Reads every game of CSA text.
pub fn read(text: &str) -> impl Iterator<Item = Result<GameRecord, RecordError>> + '_ {
    let mut games: Vec<Vec<(usize, String)>> = vec![Vec::new()];
    for (i, raw) in super::text::lines(text).enumerate() {
        let line = raw.trim();
        if line == "/" {
            games.push(Vec::new());
            continue;
        }
        // Comment lines keep their commas; others may join statements with commas.
        let parts: Vec<&str> = if line.starts_with('\'') { vec![line] } else { line.split(',').collect() };
        if let Some(g) = games.last_mut() {
            g.extend(parts.into_iter().map(|p| (i + 1, p.trim().to_string())));
        }
    }
    games.retain(|g| g.iter().any(|(_, l)| !l.is_empty() && !l.starts_with('\'')));
    games.into_iter().map(|g| read_game(&g))
}

fn bad_pos(n: usize, e: impl ToString) -> RecordError {
    RecordError::new(n, 1, RecordErrorKind::BadPosition(e.to_string()))
}

fn read_game(lines: &[(usize, String)]) -> Result<GameRecord, RecordError> {
    let first = lines.first().map_or(1, |l| l.0);
    let mut b = Builder::new(Start::default()).map_err(|e| RecordError::syntax(first, 1, e))?;
    let mut setup: Option<Setup> = None;
    let mut started = false;
    let mut note = None;
    let mut ended = false;
    for (n, line) in lines {
        let (n, line) = (*n, line.as_str());
        if line.is_empty() || line.starts_with('V') {
            continue;
        }
        if let Some(c) = line.strip_prefix('\'') {
            if let Some(r) = result_words::parse_note(c) {
                note = Some(r);
            } else if let Some(e) = c.strip_prefix("**") {
                let mut before = b.position().clone();
                before.undo_move();
                match (parse_engine(e, &before), b.last_move_mut()) {
                    (Some(info), Some(m)) => m.engine = info,
                    _ => b.comment(c.to_string()),
                }
            } else if let Some(c) = c.strip_prefix('*') {
                match (super::gui_lines::parse_engine_comment(c), b.last_move_mut()) {
                    (Some(info), Some(m)) if m.engine.is_empty() => m.engine = info,
                    _ => b.comment(c.to_string()),
                }
            }
            continue;
        }
        if let Some(name) = line.strip_prefix("N+") {
            b.tag("Black", name);
        } else if let Some(name) = line.strip_prefix("N-") {
            b.tag("White", name);
        } else if let Some(info) = line.strip_prefix('$') {
            let (k, v) = info.split_once(':').unwrap_or((info, ""));
            let tag = match k {
                "EVENT" => "Event",
                "SITE" => "Site",
                "START_TIME" => "Date",
                "OPENING" => "Opening",
                "TIME_LIMIT" => "TimeControl",
                other => other,
            };
            b.tag(tag, v);
        } else if let Some(rest) = line.strip_prefix("PI") {
            let s = setup.get_or_insert_with(Setup::default);
            *s = Position::startpos().to_setup();
            let bytes = rest.as_bytes();
            for chunk in bytes.chunks(4) {
                let t = std::str::from_utf8(chunk).unwrap_or("");
                let sq =
                    (t.len() == 4).then(|| square(chunk[0].wrapping_sub(b'0'), chunk[1].wrapping_sub(b'0'))).flatten();
                match (sq, kind_of(t.get(2..).unwrap_or(""))) {
                    (Some(sq), Some(k)) if s.board[sq.index()].map(|p| p.kind()) == Some(k) => {
                        s.board[sq.index()] = None
                    }
                    _ => return Err(bad_pos(n, format!("bad PI piece {t:?}"))),
                }
            }
        } else if line.len() >= 2 && line.starts_with('P') && line.as_bytes()[1].is_ascii_digit() {
            let r = line.as_bytes()[1] - b'0';
            let s = setup.get_or_insert_with(Setup::default);
            let cells: Vec<char> = line.chars().skip(2).collect();
            for i in 0..9 {
                let cell: String = cells.iter().skip(i * 3).take(3).collect();
                let sq = square(9 - i as u8, r).ok_or_else(|| bad_pos(n, "bad rank line"))?;
                s.board[sq.index()] = match cell.trim() {
                    "*" | "" => None,
                    t => {
                        let color = if t.starts_with('+') { Color::Black } else { Color::White };
                        Some(Piece::new(color, kind_of(&t[1..]).ok_or_else(|| bad_pos(n, format!("bad cell {t:?}")))?))
                    }
                };
            }
        } else if line.starts_with("P+") || line.starts_with("P-") {
            let color = if line.as_bytes()[1] == b'+' { Color::Black } else { Color::White };
            let s = setup.get_or_insert_with(Setup::default);
            let body = &line[2..];
            for chunk in body.as_bytes().chunks(4) {
                let t = std::str::from_utf8(chunk).unwrap_or("");
                if t == "00AL" {
                    give_all_remaining(s, color);
                    continue;
                }
                let k = kind_of(t.get(2..).unwrap_or("")).ok_or_else(|| bad_pos(n, format!("bad piece {t:?}")))?;
                if t.starts_with("00") {
                    let h = s.hands[color.index()];
                    s.hands[color.index()] = h.added(k).ok_or_else(|| bad_pos(n, "too many pieces in hand"))?;
                } else {
                    let sq = square(chunk[0].wrapping_sub(b'0'), chunk[1].wrapping_sub(b'0'))
                        .ok_or_else(|| bad_pos(n, "bad square"))?;
                    s.board[sq.index()] = Some(Piece::new(color, k));
                }
            }
        } else if (line == "+" || line == "-") && !started {
            let mut s = setup.take().unwrap_or_else(|| Position::startpos().to_setup());
            s.side_to_move = if line == "+" { Color::Black } else { Color::White };
            let pos = Position::from_setup(&s).map_err(|e| bad_pos(n, e))?;
            b.set_start(Start::from_sfen(&pos.to_sfen()).map_err(|e| bad_pos(n, e))?).map_err(|e| bad_pos(n, e))?;
            started = true;
        } else if line.starts_with(['+', '-']) {
            if ended && b.on_main_line() {
                return Err(RecordError::syntax(n, 1, format!("move {line:?} after the end of the game")));
            }
            let ply = b.ply() + 1;
            let m = read_move(b.position(), line).ok_or_else(|| {
                RecordError::new(n, 1, RecordErrorKind::IllegalMove { ply, text: line.to_string(), rule: None })
            })?;
            b.position().check_move(m).map_err(|rule| {
                RecordError::new(n, 1, RecordErrorKind::IllegalMove { ply, text: line.to_string(), rule: Some(rule) })
            })?;
            b.push(m);
        } else if let Some(t) = line.strip_prefix('T') {
            let secs: f64 = t.parse().map_err(|_| RecordError::syntax(n, 2, format!("bad time {t:?}")))?;
            let ms = (secs * 1000.0).round() as u64;
            let mover_total = previous_total(&b);
            if let Some(m) = b.last_move_mut() {
                if !ended {
                    m.time_ms = Some(ms);
                    m.total_ms = Some(mover_total + ms);
                }
            }
        } else if line.starts_with('%') {
            if let Some(r) = terminal(line, b.position().side_to_move()) {
                b.set_result(r);
                ended = true;
            }
        } else {
            return Err(RecordError::syntax(n, 1, format!("unexpected line {line:?}")));
        }
    }
    let mut rec = b.finish();
    if note.is_some() {
        rec.result = note;
    }
    Ok(rec)
}

/// The mover's total time before its last move (CSA stores only per-move times).
fn previous_total(b: &Builder) -> u64 {
    let moves = &b.record.moves;
    if !b.on_main_line() || moves.len() < 3 {
        return 0;
    }
    moves[moves.len() - 3].total_ms.unwrap_or(0)
}

/// `00AL`: every piece of a full set not placed yet goes to `color`'s hand.
fn give_all_remaining(s: &mut Setup, color: Color) {
    for k in PieceKind::HAND {
        let on_board = s.board.iter().flatten().filter(|p| p.kind().unpromoted() == k).count() as u32;
        let held = s.hands[0].count(k) + s.hands[1].count(k);
        let left = (k.set_count() as u32).saturating_sub(on_board + held);
        let h = s.hands[color.index()];
        s.hands[color.index()] = h.with_count(k, h.count(k) + left).unwrap_or(h);
    }
}

/// `'** <score> <pv…>`: floodgate engine comment, score from Black's point of view.
fn parse_engine(text: &str, before: &Position) -> Option<EngineInfo> {
    let mut w = text.split_whitespace();
    let score: i32 = w.next()?.parse().ok()?;
    let mover = before.side_to_move();
    let score = if mover == Color::Black { score } else { -score };
    let mut info = EngineInfo { score: Some(Score::Cp(score)), ..EngineInfo::default() };
    let mut pos = before.clone();
    for t in w {
        let m = read_move(&pos, t)?;
        if !pos.is_legal(m) {
            return None;
        }
        pos.do_move(m);
        info.pv.push(m);
    }
    Some(info)
}

fn engine_comment(e: &EngineInfo, before: &Position) -> Option<String> {
    let Some(Score::Cp(v)) = e.score else {
        return None;
    };
    if e.depth.is_some() || e.nodes.is_some() {
        return None; // floodgate comments carry score and PV only; keep the rest in a plain comment
    }
    let v = if before.side_to_move() == Color::Black { v } else { -v };
    let mut s = format!("'** {v}");
    let mut pos = before.clone();
    for &m in &e.pv {
        if !pos.is_legal(m) {
            return None;
        }
        s.push_str(&format!(" {}{}", sign(pos.side_to_move()), move_body(&pos, m)));
        pos.do_move(m);
    }
    Some(s)
}

fn hand_lines(h: Hand, c: Color) -> String {
    if h.is_empty() {
        return String::new();
    }
    let mut s = format!("P{}", sign(c));
    for (k, n) in h.iter() {
        for _ in 0..n {
            s.push_str(&format!("00{}", code(k)));
        }
    }
    s.push('\n');
    s
}

/// The CSA V2.2 text of one game.
pub fn to_text(rec: &GameRecord) -> Result<String, String> {
    let mut s = "V2.2\n".to_string();
    s.push_str(&format!("N+{}\nN-{}\n", rec.tag("Black").unwrap_or(""), rec.tag("White").unwrap_or("")));
    for (k, v) in &rec.tags {
        let key = match k.as_str() {
            "Black" | "White" => continue,
            "Event" => "EVENT",
            "Site" => "SITE",
            "Date" => "START_TIME",
            "Opening" => "OPENING",
            "TimeControl" => "TIME_LIMIT",
            other => other,
        };
        s.push_str(&format!("${key}:{v}\n"));
    }
    for c in &rec.summary {
        for l in c.lines() {
            s.push_str(&format!("'*{l}\n"));
        }
    }
    let start = rec.start.position().map_err(|e| e.to_string())?;
    match rec.start {
        Start::Handicap(_) => {
            s.push_str("PI");
            let full = Position::startpos().to_setup();
            let here = start.to_setup();
            for sq in Square::all() {
                if full.board[sq.index()].is_some() && here.board[sq.index()].is_none() {
                    s.push_str(&format!(
                        "{}{}",
                        sq_text(sq),
                        code(full.board[sq.index()].map_or(PieceKind::Pawn, |p| p.kind()))
                    ));
                }
            }
            s.push('\n');
        }
        Start::Sfen(_) => {
            let setup = start.to_setup();
            for r in 0..9 {
                s.push_str(&format!("P{}", r + 1));
                for f in (0..9).rev() {
                    match setup.board[f * 9 + r] {
                        None => s.push_str(" * "),
                        Some(p) => s.push_str(&format!("{}{}", sign(p.color()), code(p.kind()))),
                    }
                }
                s.push('\n');
            }
            s.push_str(&hand_lines(setup.hands[0], Color::Black));
            s.push_str(&hand_lines(setup.hands[1], Color::White));
        }
    }
    s.push(sign(start.side_to_move()));
    s.push('\n');
    let mut pos = start.clone();
    for m in &rec.moves {
        s.push_str(&format!("{}{}\n", sign(pos.side_to_move()), move_body(&pos, m.mv)));
        if let Some(t) = m.time_ms {
            s.push_str(&format!("T{}\n", t / 1000));
        }
        let engine = engine_comment(&m.engine, &pos);
        match &engine {
            Some(line) => s.push_str(&format!("{line}\n")),
            None if !m.engine.is_empty() => s.push_str(&format!("'*{}\n", super::gui_lines::engine_comment(&m.engine))),
            None => {}
        }
        for c in &m.comments {
            for l in c.lines() {
                s.push_str(&format!("'*{l}\n"));
            }
        }
        pos.do_move(m.mv);
    }
    if let Some(r) = rec.result {
        let word = terminal_word(&r, pos.side_to_move());
        s.push_str(word);
        s.push('\n');
        if terminal(word, pos.side_to_move()) != Some(r) {
            s.push_str(&format!("'{}\n", result_words::note(&r)));
        }
    }
    Ok(s)
}
