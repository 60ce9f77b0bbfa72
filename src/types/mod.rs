//! The small `Copy` types everything else is built from.

mod bitboard;
mod color;
mod hand;
mod mv;
mod piece;
mod square;

pub use bitboard::Bitboard;
pub use color::{ByColor, Color};
pub use hand::Hand;
pub use mv::{Move, MoveKind, ParseMoveError, UsiMove};
pub use piece::{Piece, PieceKind};
pub use square::{File, ParseSquareError, Rank, Square};
