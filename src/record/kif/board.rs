//! KIF board diagrams (BOD, kif-csa.md §1): written for starts that are not one of the sixteen
//! named ones, and read back.

use super::kanji;
use crate::position::Setup;
use crate::types::{Color, Hand, Piece, PieceKind, Square};

fn hand_text(h: Hand) -> String {
    if h.is_empty() {
        return "なし".to_string();
    }
    let mut s = String::new();
    // KIF lists a hand in the order SFEN writes it: R B G S N L P.
    for k in PieceKind::SFEN_HAND_ORDER {
        let n = h.count(k);
        if n > 0 {
            s.push_str(kanji::piece_name(k));
            if n > 1 {
                s.push_str(&kanji::count_text(n));
            }
            s.push('　');
        }
    }
    s
}

/// The diagram lines of a setup (hands, board, side to move).
pub(crate) fn write(setup: &Setup) -> String {
    let mut s = format!("後手の持駒：{}\n", hand_text(setup.hands[1]));
    s.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for r in 0..9 {
        s.push('|');
        for f in (0..9).rev() {
            match setup.board[f * 9 + r] {
                None => s.push_str(" ・"),
                Some(p) => {
                    s.push(if p.color() == Color::White { 'v' } else { ' ' });
                    s.push(kanji::board_char(p.kind()));
                }
            }
        }
        s.push('|');
        s.push(kanji::RANKS[r]);
        s.push('\n');
    }
    s.push_str("+---------------------------+\n");
    s.push_str(&format!("先手の持駒：{}\n", hand_text(setup.hands[0])));
    if setup.side_to_move == Color::White {
        s.push_str("後手番\n");
    }
    if setup.move_number > 1 {
        // Kifu for Windows' way of saying how many moves led to the diagram.
        s.push_str(&format!("手数＝{}\n", setup.move_number - 1));
    }
    s
}

/// Reads `先手の持駒：…` / `後手の持駒：…` text into a hand.
pub(crate) fn read_hand(text: &str) -> Option<Hand> {
    let text = text.trim();
    let mut h = Hand::EMPTY;
    if text.is_empty() || text == "なし" {
        return Some(h);
    }
    for item in text.split(['　', ' ']).filter(|s| !s.is_empty()) {
        let (kind, n) = kanji::read_piece(item)?;
        let rest: String = item.chars().skip(n).collect();
        let count = if rest.is_empty() { 1 } else { kanji::read_count(&rest)? };
        h = h.with_count(kind, h.count(kind) + count)?;
    }
    Some(h)
}

/// Reads one board row `|v香v桂 ・ …|一` into the setup; returns its rank (1–9), `None` if it is
/// not a row.
pub(crate) fn read_row(line: &str, setup: &mut Setup) -> Option<u8> {
    let inner = line.strip_prefix('|')?;
    let end = inner.find('|')?;
    let rank = inner[end + 1..].chars().next().and_then(kanji::rank_of)?;
    let cells: Vec<char> = inner[..end].chars().collect();
    if cells.len() != 18 {
        return None;
    }
    for i in 0..9 {
        let (mark, name) = (cells[2 * i], cells[2 * i + 1]);
        let file = 9 - i;
        let sq = Square::from_index_unchecked((file - 1) * 9 + rank as usize - 1);
        setup.board[sq.index()] = match name {
            '・' => None,
            _ => {
                let (kind, _) = kanji::read_piece(&name.to_string())?;
                Some(Piece::new(if mark == 'v' { Color::White } else { Color::Black }, kind))
            }
        };
    }
    Some(rank)
}
