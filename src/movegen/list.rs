//! `MoveList`: a fixed-capacity move buffer (no allocation per node). 593 is the largest known
//! number of legal moves in a shogi position; the capacity leaves room above it.
//!
//! The buffer is left uninitialised until written: a node creates several lists (the move
//! picker's moves and their scores), and filling 600 slots each time cost 7 % of the search's
//! instructions (callgrind, `hisha bench 6`). [`FixedList`] keeps that in one place: only the
//! written prefix is ever read.

use crate::types::Move;
use std::mem::MaybeUninit;
use std::ops::{Deref, DerefMut};

/// Capacity of a [`MoveList`].
pub const MAX_MOVES: usize = 600;

/// A list of at most [`MAX_MOVES`] `Copy` values in place, its storage not initialised beyond
/// its length.
#[derive(Clone)]
pub struct FixedList<T: Copy> {
    /// Slots `0..len` hold written values; the rest are uninitialised.
    items: [MaybeUninit<T>; MAX_MOVES],
    len: usize,
}

/// A list of at most [`MAX_MOVES`] moves.
pub type MoveList = FixedList<Move>;

impl<T: Copy> FixedList<T> {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> FixedList<T> {
        FixedList { items: [const { MaybeUninit::uninit() }; MAX_MOVES], len: 0 }
    }

    /// Appends a value. A full list drops further values (debug builds assert it never fills up).
    #[inline(always)]
    pub fn push(&mut self, value: T) {
        debug_assert!(self.len < MAX_MOVES);
        if let Some(slot) = self.items.get_mut(self.len) {
            slot.write(value);
            self.len += 1;
        }
    }

    /// Appends the values of `values` in order, as [`push`](Self::push) each (the length is
    /// kept in a register meanwhile).
    #[inline(always)]
    pub fn extend(&mut self, values: impl IntoIterator<Item = T>) {
        let mut len = self.len;
        for value in values {
            debug_assert!(len < MAX_MOVES);
            if let Some(slot) = self.items.get_mut(len) {
                slot.write(value);
                len += 1;
            }
        }
        self.len = len;
    }

    /// Removes all values.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `len` values (all of them if there are fewer).
    #[inline(always)]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Keeps only the values for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(T) -> bool) {
        let items = &mut self[..];
        let mut j = 0;
        for i in 0..items.len() {
            let value = items[i];
            if keep(value) {
                items[j] = value;
                j += 1;
            }
        }
        self.len = j;
    }
}

impl<T: Copy> Default for FixedList<T> {
    fn default() -> FixedList<T> {
        FixedList::new()
    }
}

impl<T: Copy> Deref for FixedList<T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        let written = &self.items[..self.len];
        // SAFETY: `push` is the only way `len` grows, and it writes slot `len` first; `truncate`,
        // `clear` and `retain` only shrink it. So slots `0..len` are initialised, and
        // `MaybeUninit<T>` has the layout of `T`.
        #[allow(unsafe_code)]
        unsafe {
            &*(written as *const [MaybeUninit<T>] as *const [T])
        }
    }
}

impl<T: Copy> DerefMut for FixedList<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        let written = &mut self.items[..self.len];
        // SAFETY: as in `deref`: slots `0..len` are initialised.
        #[allow(unsafe_code)]
        unsafe {
            &mut *(written as *mut [MaybeUninit<T>] as *mut [T])
        }
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter().map(|m| m.to_string())).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_written_values_are_seen_through_push_truncate_and_retain() {
        let mut list: FixedList<i32> = FixedList::new();
        assert!(list.is_empty());
        for v in 0..10 {
            list.push(v);
        }
        assert_eq!(&list[..], &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        list.truncate(5);
        list.extend(5..10);
        assert_eq!(&list[..], &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        list.retain(|v| v % 3 != 0);
        assert_eq!(&list[..], &[1, 2, 4, 5, 7, 8]);
        list.truncate(4);
        assert_eq!(&list[..], &[1, 2, 4, 5]);
        list.truncate(10);
        assert_eq!(list.len(), 4, "truncate never lengthens");
        list[0] = 42;
        list.clear();
        list.push(7);
        assert_eq!(&list[..], &[7]);
    }

    #[test]
    fn a_list_holds_max_moves_values() {
        let mut list: FixedList<u16> = FixedList::new();
        for v in 0..MAX_MOVES as u16 {
            list.push(v);
        }
        assert_eq!(list.len(), MAX_MOVES);
        assert_eq!(list[MAX_MOVES - 1], MAX_MOVES as u16 - 1);
    }
}
