//! The sixteen standard start positions (sfen-and-handicaps.md §2) and every name they go by.
//!
//! The handicap giver (*uwate*) is White and moves first; the SFENs have side `w` and move number
//! 1 (the even game: `b`). Names are matched case-insensitively in English (both PSN specs'
//! spellings), as KIF Japanese names, as short ids and as JKF preset names.
//!
//! PSN-1998's `7 piece` does not say which silver goes (UNCONFIRMED in the spec notes). We read it
//! as the right 7-piece handicap (7a silver removed), by analogy with `5 piece` = 五枚落ち, which
//! removes the giver's *right* knight (8a); the left variants always say "left".

use std::fmt;
use std::str::FromStr;

/// A standard start position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Handicap {
    /// 平手: no handicap, Black moves first.
    Even,
    /// 香落ち: White's left lance (1a) removed.
    Lance,
    /// 右香落ち: White's right lance (9a) removed.
    RightLance,
    /// 角落ち.
    Bishop,
    /// 飛車落ち.
    Rook,
    /// 飛香落ち: rook and the 1a lance.
    RookLance,
    /// 二枚落ち: rook and bishop.
    TwoPiece,
    /// 三枚落ち: rook, bishop, 1a lance.
    ThreePiece,
    /// 四枚落ち: rook, bishop, both lances.
    FourPiece,
    /// 五枚落ち: four-piece plus the 8a knight.
    FivePiece,
    /// 左五枚落ち: four-piece plus the 2a knight.
    LeftFivePiece,
    /// 六枚落ち: rook, bishop, both lances, both knights.
    SixPiece,
    /// 左七枚落ち: six-piece plus the 3a silver.
    LeftSevenPiece,
    /// 右七枚落ち: six-piece plus the 7a silver.
    RightSevenPiece,
    /// 八枚落ち: six-piece plus both silvers.
    EightPiece,
    /// 十枚落ち: eight-piece plus both golds.
    TenPiece,
}

struct Entry {
    h: Handicap,
    id: &'static str,
    english: &'static str,
    kif: &'static str,
    sfen: &'static str,
    /// Further accepted spellings (lower case, compared after normalising spaces).
    aliases: &'static [&'static str],
}

macro_rules! sfen {
    ($top:literal, $second:literal, $side:literal) => {
        concat!($top, "/", $second, "/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL ", $side, " - 1")
    };
}

static TABLE: [Entry; 16] = [
    Entry {
        h: Handicap::Even,
        id: "even",
        english: "Even",
        kif: "平手",
        sfen: sfen!("lnsgkgsnl", "1r5b1", "b"),
        // PSN Draft 1 also lists `Sente` and `Gote` as handicap values (psn.md §2, meaning not
        // explained): in the handicap ladder 先 (the weaker player always takes Black) is played
        // from the even start, so both name the even start position.
        aliases: &["none", "hirate", "even game", "no handicap", "sente", "gote"],
    },
    Entry {
        h: Handicap::Lance,
        id: "lance",
        english: "Lance",
        kif: "香落ち",
        sfen: sfen!("lnsgkgsn1", "1r5b1", "w"),
        aliases: &["left lance", "ky", "kyo"],
    },
    Entry {
        h: Handicap::RightLance,
        id: "right-lance",
        english: "Right Lance",
        kif: "右香落ち",
        sfen: sfen!("1nsgkgsnl", "1r5b1", "w"),
        aliases: &["ky_r"],
    },
    Entry {
        h: Handicap::Bishop,
        id: "bishop",
        english: "Bishop",
        kif: "角落ち",
        sfen: sfen!("lnsgkgsnl", "1r7", "w"),
        aliases: &["ka", "kaku"],
    },
    Entry {
        h: Handicap::Rook,
        id: "rook",
        english: "Rook",
        kif: "飛車落ち",
        sfen: sfen!("lnsgkgsnl", "7b1", "w"),
        aliases: &["hi", "hisha", "飛落ち"],
    },
    Entry {
        h: Handicap::RookLance,
        id: "rook-lance",
        english: "Rook and Lance",
        kif: "飛香落ち",
        sfen: sfen!("lnsgkgsn1", "7b1", "w"),
        aliases: &["rook & lance", "rook+lance", "rook + lance", "hiky", "rook-and-lance"],
    },
    Entry {
        h: Handicap::TwoPiece,
        id: "2-piece",
        english: "Two Pieces",
        kif: "二枚落ち",
        sfen: sfen!("lnsgkgsnl", "9", "w"),
        aliases: &[
            "2 piece",
            "2 pieces",
            "two piece",
            "rook and bishop",
            "rook+bishop",
            "rook + bishop",
            "rook & bishop",
            "2",
        ],
    },
    Entry {
        h: Handicap::ThreePiece,
        id: "3-piece",
        english: "Three Pieces",
        kif: "三枚落ち",
        sfen: sfen!("lnsgkgsn1", "9", "w"),
        aliases: &["3 piece", "3 pieces", "three piece", "3"],
    },
    Entry {
        h: Handicap::FourPiece,
        id: "4-piece",
        english: "Four Pieces",
        kif: "四枚落ち",
        sfen: sfen!("1nsgkgsn1", "9", "w"),
        aliases: &["4 piece", "4 pieces", "four piece", "4"],
    },
    Entry {
        h: Handicap::FivePiece,
        id: "5-piece",
        english: "Five Pieces",
        kif: "五枚落ち",
        sfen: sfen!("2sgkgsn1", "9", "w"),
        aliases: &["5 piece", "5 pieces", "five piece", "right 5 piece", "5"],
    },
    Entry {
        h: Handicap::LeftFivePiece,
        id: "left-5-piece",
        english: "Left Five Pieces",
        kif: "左五枚落ち",
        sfen: sfen!("1nsgkgs2", "9", "w"),
        aliases: &["left 5 piece", "left 5 pieces", "left five piece", "5_l"],
    },
    Entry {
        h: Handicap::SixPiece,
        id: "6-piece",
        english: "Six Pieces",
        kif: "六枚落ち",
        sfen: sfen!("2sgkgs2", "9", "w"),
        aliases: &["6 piece", "6 pieces", "six piece", "6"],
    },
    Entry {
        h: Handicap::LeftSevenPiece,
        id: "left-7-piece",
        english: "Left Seven Pieces",
        kif: "左七枚落ち",
        sfen: sfen!("2sgkg3", "9", "w"),
        aliases: &["left 7 piece", "left 7 pieces", "left seven piece", "7_l"],
    },
    Entry {
        h: Handicap::RightSevenPiece,
        id: "right-7-piece",
        english: "Right Seven Pieces",
        kif: "右七枚落ち",
        sfen: sfen!("3gkgs2", "9", "w"),
        aliases: &[
            "right 7 piece",
            "right 7 pieces",
            "right seven piece",
            "7_r",
            "7 piece",
            "7 pieces",
            "seven piece",
            "seven pieces",
            "7",
        ],
    },
    Entry {
        h: Handicap::EightPiece,
        id: "8-piece",
        english: "Eight Pieces",
        kif: "八枚落ち",
        sfen: sfen!("3gkg3", "9", "w"),
        aliases: &["8 piece", "8 pieces", "eight piece", "8"],
    },
    Entry {
        h: Handicap::TenPiece,
        id: "10-piece",
        english: "Ten Pieces",
        kif: "十枚落ち",
        sfen: sfen!("4k4", "9", "w"),
        aliases: &["10 piece", "10 pieces", "ten piece", "10"],
    },
];

impl Handicap {
    /// All sixteen starts, even first.
    pub const ALL: [Handicap; 16] = [
        Handicap::Even,
        Handicap::Lance,
        Handicap::RightLance,
        Handicap::Bishop,
        Handicap::Rook,
        Handicap::RookLance,
        Handicap::TwoPiece,
        Handicap::ThreePiece,
        Handicap::FourPiece,
        Handicap::FivePiece,
        Handicap::LeftFivePiece,
        Handicap::SixPiece,
        Handicap::LeftSevenPiece,
        Handicap::RightSevenPiece,
        Handicap::EightPiece,
        Handicap::TenPiece,
    ];

    fn entry(self) -> &'static Entry {
        &TABLE[self as usize]
    }

    /// Short id used on the command line: `even`, `lance`, `2-piece`, `left-7-piece` …
    pub fn id(self) -> &'static str {
        self.entry().id
    }

    /// English name as PSN Draft 1 writes it (`Rook and Lance`, `Two Pieces` …).
    pub fn english(self) -> &'static str {
        self.entry().english
    }

    /// KIF 手合割 name (`香落ち` …).
    pub fn kif_name(self) -> &'static str {
        self.entry().kif
    }

    /// The start position as USI SFEN.
    pub fn sfen(self) -> &'static str {
        self.entry().sfen
    }

    /// The handicap whose start position is `sfen` (compared on board, side and hands), if any.
    pub(crate) fn from_start_sfen(sfen: &str) -> Option<Handicap> {
        let key = |s: &str| s.split_ascii_whitespace().take(3).collect::<Vec<_>>().join(" ");
        let k = key(sfen);
        Handicap::ALL.into_iter().find(|h| key(h.sfen()) == k)
    }
}

/// Normalises a name for matching: lower case, `_`/`-` as spaces, runs of spaces collapsed,
/// a trailing `handicap` dropped.
fn normalise(s: &str) -> String {
    let lower = s.trim().to_lowercase().replace(['_', '-'], " ");
    let words: Vec<&str> = lower.split_whitespace().collect();
    let words = match words.last() {
        Some(&"handicap") if words.len() > 1 => &words[..words.len() - 1],
        _ => &words[..],
    };
    words.join(" ")
}

/// A handicap name that matches none of the sixteen starts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown handicap {0:?} (try `hisha handicaps` for the list)")]
pub struct ParseHandicapError(pub String);

impl FromStr for Handicap {
    type Err = ParseHandicapError;
    fn from_str(s: &str) -> Result<Handicap, ParseHandicapError> {
        let n = normalise(s);
        TABLE
            .iter()
            .find(|e| {
                normalise(e.id) == n
                    || normalise(e.english) == n
                    || e.kif == s.trim()
                    || e.aliases.iter().any(|a| normalise(a) == n || *a == s.trim())
            })
            .map(|e| e.h)
            .ok_or_else(|| ParseHandicapError(s.to_string()))
    }
}

impl fmt::Display for Handicap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.english())
    }
}

#[cfg(test)]
mod tests;
