//! YaneuraOu's training-data formats: the 32-byte Huffman-coded position (`PackedSfen`) and the
//! 40-byte record (`PackedSfenValue`, the `.psv`/`.bin` files of YaneuraOu's `gensfen`, also
//! read by cshogi, nnue-pytorch's shogi forks and bullet-shogi).
//!
//! Facts from YaneuraOu (`source/extra/sfen_packer.cpp`, `source/position.h` `PsvRecord`, and
//! `source/learn/learn.h` `PackedSfenValue` before the learner was removed):
//! - The bit stream is written from bit 0 of byte 0 upwards: side to move (1 bit, 1 = White),
//!   Black's then White's king square (7 bits each, square index as ours: file-major from 1a),
//!   then every other square from index 0 to 80 (kings skipped), then the hands (Black's, then
//!   White's, in the order pawn, lance, knight, silver, gold, bishop, rook), then the pieces of
//!   the set that are neither on the board nor in hand (the "piece box", cshogi's convention for
//!   handicaps), in the same order. Codes are written least significant bit first.
//! - Board piece: an empty square is `0` (1 bit); a piece is its kind's code (pawn `01`, lance
//!   `0011`, knight `1011`, silver `0111`, gold `01111`, bishop `011111`, rook `111111` as
//!   values 0x01, 0x03, 0x0b, 0x07, 0x0f, 0x1f, 0x3f of 2, 4, 4, 4, 5, 6, 6 bits), then a promotion
//!   bit (not for gold), then a colour bit (1 = White).
//! - Hand piece: the board code without its lowest bit, a promotion bit of 0 (not for gold), the
//!   colour bit. Piece-box piece: codes 0x02, 0x09, 0x0d, 0x0b, 0x1b, 0x2f, 0x3f (2, 4, 4, 4, 5, 6,
//!   6 bits), then a 0 bit (not for gold): read as a hand piece they have the promotion bit set,
//!   which is how a reader tells them apart.
//! - A position with both kings always takes exactly 256 bits. (A missing king would be written
//!   as square 81 and overflow the 256 bits by one: such positions are refused here.)
//! - Record: the packed position, `i16` score of the side to move, `u16` move in YaneuraOu's
//!   `Move16` (destination bits 0–6, origin bits 7–13 or the dropped kind 1..=7 = pawn, lance,
//!   knight, silver, bishop, rook, gold with bit 14 set, bit 15 = promotion), `u16` game ply (plies
//!   from the game's start: `gensfen` writes its 0-based loop counter), `i8` game result of the
//!   side to move (1 win, 0 draw, -1 loss), one padding byte; little-endian.

use hisha::position::{Position, Setup, SetupError};
use hisha::types::{Color, Hand, Move, MoveKind, Piece, PieceKind, Square};

/// Bytes of a packed position.
pub(crate) const PACKED_SFEN_BYTES: usize = 32;
/// Bytes of a [`PackedSfenValue`] record.
pub const RECORD_BYTES: usize = 40;

/// The kinds in the order of the hands and the piece box (YaneuraOu follows Apery and cshogi).
const HAND_ORDER: [PieceKind; 7] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Silver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
];

/// (code, bits) of a piece on the board, by [`PieceKind::index`] of the unpromoted kind.
const BOARD_CODE: [(u32, u32); 7] = [(0x01, 2), (0x03, 4), (0x0b, 4), (0x07, 4), (0x1f, 6), (0x3f, 6), (0x0f, 5)];
/// (code, bits) of a piece in the box, by [`PieceKind::index`].
const BOX_CODE: [(u32, u32); 7] = [(0x02, 2), (0x09, 4), (0x0d, 4), (0x0b, 4), (0x2f, 6), (0x3f, 6), (0x1b, 5)];

/// Why 32 bytes are not a position, or a position cannot be packed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PackedSfenError {
    /// Only positions with both kings fit the format.
    #[error("a position without both kings cannot be packed")]
    MissingKing,
    /// The bits are not a sequence of the format's codes.
    #[error("bad packed position: {0}")]
    BadCode(&'static str),
    /// The decoded pieces do not make a legal position.
    #[error("packed position is not legal: {0}")]
    Illegal(#[from] SetupError),
}

/// A position packed into 256 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PackedSfen(pub [u8; PACKED_SFEN_BYTES]);

struct BitWriter {
    data: [u8; PACKED_SFEN_BYTES],
    cursor: usize,
}

impl BitWriter {
    fn write(&mut self, value: u32, bits: u32) -> Result<(), PackedSfenError> {
        for i in 0..bits {
            if self.cursor >= 8 * PACKED_SFEN_BYTES {
                return Err(PackedSfenError::BadCode("more than 256 bits"));
            }
            if value >> i & 1 != 0 {
                self.data[self.cursor / 8] |= 1 << (self.cursor % 8);
            }
            self.cursor += 1;
        }
        Ok(())
    }
}

struct BitReader<'a> {
    data: &'a [u8; PACKED_SFEN_BYTES],
    cursor: usize,
}

impl BitReader<'_> {
    fn bit(&mut self) -> Result<u32, PackedSfenError> {
        if self.cursor >= 8 * PACKED_SFEN_BYTES {
            return Err(PackedSfenError::BadCode("more than 256 bits"));
        }
        let b = u32::from(self.data[self.cursor / 8] >> (self.cursor % 8) & 1);
        self.cursor += 1;
        Ok(b)
    }

    fn bits(&mut self, n: u32) -> Result<u32, PackedSfenError> {
        let mut v = 0;
        for i in 0..n {
            v |= self.bit()? << i;
        }
        Ok(v)
    }

    /// Reads bits until they form one of `codes` (each shifted right by `drop` bits, that many
    /// bits shorter); returns its index.
    fn code(&mut self, codes: &[(u32, u32)], drop: u32) -> Result<usize, PackedSfenError> {
        let (mut code, mut bits) = (0, 0);
        while bits < 6 {
            code |= self.bit()? << bits;
            bits += 1;
            if let Some(i) = codes.iter().position(|&(c, b)| c >> drop == code && b - drop == bits) {
                return Ok(i);
            }
        }
        Err(PackedSfenError::BadCode("no piece has this code"))
    }
}

/// Codes for a board square: index 0 is the empty square, then the kinds by index.
const SQUARE_CODES: [(u32, u32); 8] = [
    (0x00, 1),
    BOARD_CODE[0],
    BOARD_CODE[1],
    BOARD_CODE[2],
    BOARD_CODE[3],
    BOARD_CODE[4],
    BOARD_CODE[5],
    BOARD_CODE[6],
];

impl PackedSfen {
    /// Packs `pos` (both kings needed).
    pub fn pack(pos: &Position) -> Result<PackedSfen, PackedSfenError> {
        let mut w = BitWriter { data: [0; PACKED_SFEN_BYTES], cursor: 0 };
        w.write(pos.side_to_move().index() as u32, 1)?;
        for c in Color::ALL {
            let king = pos.king_square(c).ok_or(PackedSfenError::MissingKing)?;
            w.write(king.index() as u32, 7)?;
        }
        let mut in_box: [u32; 7] = std::array::from_fn(|k| u32::from(PieceKind::HAND[k].set_count()));
        for sq in Square::all() {
            match pos.piece_on(sq) {
                None => w.write(0, 1)?,
                Some(p) if p.kind() == PieceKind::King => {}
                Some(p) => {
                    let base = p.kind().unpromoted();
                    let (code, bits) = BOARD_CODE[base.index()];
                    w.write(code, bits)?;
                    if base != PieceKind::Gold {
                        w.write(u32::from(p.kind().is_promoted()), 1)?;
                    }
                    w.write(p.color().index() as u32, 1)?;
                    in_box[base.index()] -= 1;
                }
            }
        }
        for c in Color::ALL {
            for kind in HAND_ORDER {
                let (code, bits) = BOARD_CODE[kind.index()];
                for _ in 0..pos.hand(c).count(kind) {
                    w.write(code >> 1, bits - 1)?;
                    if kind != PieceKind::Gold {
                        w.write(0, 1)?;
                    }
                    w.write(c.index() as u32, 1)?;
                }
                in_box[kind.index()] -= pos.hand(c).count(kind);
            }
        }
        for kind in HAND_ORDER {
            let (code, bits) = BOX_CODE[kind.index()];
            for _ in 0..in_box[kind.index()] {
                w.write(code, bits)?;
                if kind != PieceKind::Gold {
                    w.write(0, 1)?;
                }
            }
        }
        Ok(PackedSfen(w.data))
    }

    /// Unpacks into a legal position (move number 1: the format has none; see
    /// [`PackedSfenValue::position`]).
    pub fn unpack(&self) -> Result<Position, PackedSfenError> {
        let mut r = BitReader { data: &self.0, cursor: 0 };
        let side_to_move = if r.bit()? == 1 { Color::White } else { Color::Black };
        let mut setup = Setup { side_to_move, ..Setup::default() };
        for c in Color::ALL {
            let sq = r.bits(7)? as usize;
            let sq = Square::from_index(sq).ok_or(PackedSfenError::BadCode("king square beyond 9i"))?;
            if setup.board[sq.index()].is_some() {
                return Err(PackedSfenError::BadCode("both kings on one square"));
            }
            setup.board[sq.index()] = Some(Piece::new(c, PieceKind::King));
        }
        for sq in 0..81 {
            if setup.board[sq].is_some() {
                continue;
            }
            let i = r.code(&SQUARE_CODES, 0)?;
            if i == 0 {
                continue;
            }
            let base = PieceKind::HAND[i - 1];
            let promoted = base != PieceKind::Gold && r.bit()? == 1;
            let color = if r.bit()? == 1 { Color::White } else { Color::Black };
            let kind = if promoted { base.promoted().unwrap_or(base) } else { base };
            setup.board[sq] = Some(Piece::new(color, kind));
        }
        while r.cursor < 8 * PACKED_SFEN_BYTES {
            let kind = PieceKind::HAND[r.code(&BOARD_CODE, 1)?];
            let boxed = kind != PieceKind::Gold && r.bit()? == 1;
            let color = r.bit()?;
            if boxed {
                continue;
            }
            let hand = &mut setup.hands[color as usize];
            *hand = hand_with_one_more(*hand, kind)?;
        }
        Ok(Position::from_setup(&setup)?)
    }
}

fn hand_with_one_more(hand: Hand, kind: PieceKind) -> Result<Hand, PackedSfenError> {
    hand.added(kind).ok_or(PackedSfenError::BadCode("more pieces in hand than a set has"))
}

/// `m` in YaneuraOu's 16-bit form.
pub fn move_to_yaneuraou(m: Move) -> u16 {
    match m.kind() {
        MoveKind::Normal { from, to, promote } => {
            to.index() as u16 | (from.index() as u16) << 7 | if promote { 1 << 15 } else { 0 }
        }
        MoveKind::Drop { kind, to } => to.index() as u16 | (kind.index() as u16 + 1) << 7 | 1 << 14,
    }
}

/// The move a YaneuraOu 16-bit move stands for (`None` for values that are no move: 0,
/// YaneuraOu's null, resign and win moves, bad squares or kinds).
pub fn move_from_yaneuraou(bits: u16) -> Option<Move> {
    let to = Square::from_index(usize::from(bits & 0x7F))?;
    let from = usize::from(bits >> 7 & 0x7F);
    let promote = bits & 1 << 15 != 0;
    if bits & 1 << 14 != 0 {
        let kind = PieceKind::HAND.get(from.checked_sub(1)?).copied()?;
        (!promote).then(|| Move::drop(kind, to))
    } else {
        let from = Square::from_index(from)?;
        (from != to).then(|| Move::normal(from, to, promote))
    }
}

/// One training record: a position, the score of a search from it (side to move's view), the
/// move chosen, the game ply and the game's result for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedSfenValue {
    /// The position.
    pub sfen: PackedSfen,
    /// Search score, side to move's view, in YaneuraOu's units (a pawn is about 90).
    pub score: i16,
    /// The search's move, YaneuraOu's `Move16` ([`move_to_yaneuraou`]).
    pub mv: u16,
    /// Plies from the game's start.
    pub game_ply: u16,
    /// 1 if the side to move went on to win, -1 if it lost, 0 for a draw.
    pub game_result: i8,
    /// The padding byte (0 in files written here; kept as read).
    pub padding: u8,
}

impl PackedSfenValue {
    /// The 40 bytes of the record.
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut out = [0; RECORD_BYTES];
        out[..32].copy_from_slice(&self.sfen.0);
        out[32..34].copy_from_slice(&self.score.to_le_bytes());
        out[34..36].copy_from_slice(&self.mv.to_le_bytes());
        out[36..38].copy_from_slice(&self.game_ply.to_le_bytes());
        out[38] = self.game_result as u8;
        out[39] = self.padding;
        out
    }

    /// The record in `bytes` (not checked: see [`PackedSfenValue::position`]).
    pub fn from_bytes(bytes: &[u8; RECORD_BYTES]) -> PackedSfenValue {
        let mut sfen = [0; 32];
        sfen.copy_from_slice(&bytes[..32]);
        PackedSfenValue {
            sfen: PackedSfen(sfen),
            score: i16::from_le_bytes([bytes[32], bytes[33]]),
            mv: u16::from_le_bytes([bytes[34], bytes[35]]),
            game_ply: u16::from_le_bytes([bytes[36], bytes[37]]),
            game_result: bytes[38] as i8,
            padding: bytes[39],
        }
    }

    /// The position, with its SFEN move number set to `game_ply + 1`.
    pub fn position(&self) -> Result<Position, PackedSfenError> {
        let pos = self.sfen.unpack()?;
        let mut setup = pos.to_setup();
        setup.move_number = u32::from(self.game_ply) + 1;
        Ok(Position::from_setup(&setup)?)
    }

    /// The record's move, if it is a legal move in `pos`.
    pub fn legal_move(&self, pos: &Position) -> Option<Move> {
        move_from_yaneuraou(self.mv).filter(|&m| pos.legal_moves().contains(&m))
    }
}

#[cfg(test)]
#[path = "packed_sfen_tests.rs"]
mod tests;
