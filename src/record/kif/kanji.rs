//! Japanese characters of KIF and KI2: full-width file digits, kanji rank numerals, piece names,
//! hand counts.

use crate::types::PieceKind;

/// Full-width digits １–９ for files.
pub const FILES: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
/// Kanji numerals 一–九 for ranks.
pub const RANKS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The file (1–9) of a full-width or ASCII digit.
pub fn file_of(c: char) -> Option<u8> {
    FILES
        .iter()
        .position(|&x| x == c)
        .map(|i| i as u8 + 1)
        .or_else(|| c.to_digit(10).filter(|d| (1..=9).contains(d)).map(|d| d as u8))
}

/// The rank (1–9) of a kanji numeral or ASCII digit.
pub fn rank_of(c: char) -> Option<u8> {
    RANKS
        .iter()
        .position(|&x| x == c)
        .map(|i| i as u8 + 1)
        .or_else(|| c.to_digit(10).filter(|d| (1..=9).contains(d)).map(|d| d as u8))
}

/// The name a KIF move uses for a piece (one or two characters).
pub fn piece_name(k: PieceKind) -> &'static str {
    match k {
        PieceKind::Pawn => "歩",
        PieceKind::Lance => "香",
        PieceKind::Knight => "桂",
        PieceKind::Silver => "銀",
        PieceKind::Gold => "金",
        PieceKind::Bishop => "角",
        PieceKind::Rook => "飛",
        PieceKind::King => "玉",
        PieceKind::ProPawn => "と",
        PieceKind::ProLance => "成香",
        PieceKind::ProKnight => "成桂",
        PieceKind::ProSilver => "成銀",
        PieceKind::Horse => "馬",
        PieceKind::Dragon => "龍",
    }
}

/// The one-character name a board diagram uses for a piece.
pub fn board_char(k: PieceKind) -> char {
    match k {
        PieceKind::ProLance => '杏',
        PieceKind::ProKnight => '圭',
        PieceKind::ProSilver => '全',
        _ => piece_name(k).chars().next().unwrap_or('・'),
    }
}

/// Reads a piece name at the start of `s`: the kind and the number of characters used.
pub fn read_piece(s: &str) -> Option<(PieceKind, usize)> {
    let mut it = s.chars();
    let c1 = it.next()?;
    let c2 = it.next();
    if c1 == '成' {
        let k = match c2? {
            '香' => PieceKind::ProLance,
            '桂' => PieceKind::ProKnight,
            '銀' => PieceKind::ProSilver,
            _ => return None,
        };
        return Some((k, 2));
    }
    let k = match c1 {
        '歩' => PieceKind::Pawn,
        '香' => PieceKind::Lance,
        '桂' => PieceKind::Knight,
        '銀' => PieceKind::Silver,
        '金' => PieceKind::Gold,
        '角' => PieceKind::Bishop,
        '飛' => PieceKind::Rook,
        '玉' | '王' => PieceKind::King,
        'と' => PieceKind::ProPawn,
        '杏' => PieceKind::ProLance,
        '圭' => PieceKind::ProKnight,
        '全' => PieceKind::ProSilver,
        '馬' => PieceKind::Horse,
        '龍' | '竜' => PieceKind::Dragon,
        _ => return None,
    };
    Some((k, 1))
}

/// Kanji numeral for a hand count 1–18 (`一` … `十八`).
pub fn count_text(n: u32) -> String {
    const D: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    match n {
        0 => String::new(),
        1..=9 => D[n as usize].to_string(),
        10 => "十".to_string(),
        _ => format!("十{}", D[(n % 10) as usize]),
    }
}

/// Reads a kanji numeral (`一` … `十八`, also ASCII digits); `None` if there is none.
pub fn read_count(s: &str) -> Option<u32> {
    if let Ok(n) = s.parse::<u32>() {
        return Some(n);
    }
    let digit = |c: char| RANKS.iter().position(|&x| x == c).map(|i| i as u32 + 1);
    let mut chars = s.chars();
    match (chars.next(), chars.next(), chars.next()) {
        (Some('十'), None, _) => Some(10),
        (Some('十'), Some(d), None) => digit(d).map(|d| 10 + d),
        (Some(d), None, _) => digit(d),
        _ => None,
    }
}
