//! Large tables of zeros (the transposition table, the mate table): allocated fallibly, so that a
//! size the system refuses is an answer (`None`) and not an abort, and zeroed lazily: the memory
//! comes from `calloc`, which takes a large block straight from the system as fresh pages that the
//! kernel zeroes when each is first touched, so a table of gigabytes costs nothing until it is used
//! and forgetting one is a new allocation, not a pass of writes over it.
//!
//! Rust's `alloc_zeroed` calls `calloc` only for alignments up to 16 bytes (above, it writes the
//! zeros itself), so the block is requested with 16-byte alignment and one cache line more, and
//! the slice starts at its first 64-byte boundary.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ptr::NonNull;

/// Cache line: every table starts on one.
const LINE: usize = 64;

/// Types whose all-zero bit pattern is a valid value (integers, atomics, arrays and plain structs
/// of them).
///
/// # Safety
///
/// Implementing it promises that a value of all zero bytes is a valid `Self`, that `Self` needs no
/// `Drop`, and that its alignment is at most [`LINE`] (64 bytes).
#[allow(unsafe_code)]
pub(crate) unsafe trait Zeroable {}

#[allow(unsafe_code)]
// SAFETY: every bit pattern is a valid u64; 8-byte alignment.
unsafe impl Zeroable for u64 {}

/// A slice of `len` zeroed values of `T`, starting on a cache line.
pub(crate) struct ZeroedSlice<T: Zeroable> {
    /// The block as allocated (freed with `layout`).
    block: NonNull<u8>,
    layout: Layout,
    /// The first element, on the block's first cache-line boundary.
    data: NonNull<T>,
    len: usize,
}

/// The most one table may take: three quarters of the machine's memory where it is known
/// (Linux's `MemTotal`), else no limit. A system that overcommits grants lazily zeroed blocks
/// larger than its memory, and the search would then be killed when it filled the table; a table
/// refused here is cut to a size that fits instead.
fn memory_limit() -> usize {
    static LIMIT: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *LIMIT.get_or_init(|| {
        let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
        let kib = meminfo
            .lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse::<usize>().ok());
        kib.map_or(usize::MAX, |k| k.saturating_mul(1024) / 4 * 3)
    })
}

impl<T: Zeroable> ZeroedSlice<T> {
    /// `len` zeroed values, or `None` when the system refuses the memory, the size passes three
    /// quarters of the machine's memory ([`memory_limit`]) or it overflows.
    #[allow(unsafe_code)]
    pub(crate) fn new(len: usize) -> Option<ZeroedSlice<T>> {
        let bytes = len.checked_mul(std::mem::size_of::<T>())?.checked_add(LINE)?;
        if bytes > memory_limit() {
            return None;
        }
        let layout = Layout::from_size_align(bytes, 16).ok()?;
        // SAFETY: the layout's size is at least LINE bytes, never zero.
        let block = NonNull::new(unsafe { alloc_zeroed(layout) })?;
        let offset = (LINE - block.as_ptr() as usize % LINE) % LINE;
        // SAFETY: `offset` < LINE, so the pointer stays inside the block; it is non-null.
        let data = unsafe { NonNull::new_unchecked(block.as_ptr().add(offset).cast::<T>()) };
        Some(ZeroedSlice { block, layout, data, len })
    }
}

impl<T: Zeroable> std::ops::Deref for ZeroedSlice<T> {
    type Target = [T];

    #[inline(always)]
    #[allow(unsafe_code)]
    fn deref(&self) -> &[T] {
        // SAFETY: `data` is aligned for T (a cache line, T's alignment divides it), followed by
        // `len * size_of::<T>()` zeroed bytes of the block (which has LINE bytes of slack for the
        // offset), and zero bytes are a valid T (`Zeroable`). The block lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.data.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> std::ops::DerefMut for ZeroedSlice<T> {
    #[inline(always)]
    #[allow(unsafe_code)]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as for `deref`; `&mut self` makes this the only reference.
        unsafe { std::slice::from_raw_parts_mut(self.data.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for ZeroedSlice<T> {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        // SAFETY: `block` was allocated with `layout` and is freed once; T needs no drop.
        unsafe { dealloc(self.block.as_ptr(), self.layout) };
    }
}

// SAFETY: a ZeroedSlice owns its values like a Box<[T]> does.
#[allow(unsafe_code)]
unsafe impl<T: Zeroable + Send> Send for ZeroedSlice<T> {}
// SAFETY: shared access hands out only `&[T]`, as a Box<[T]> does.
#[allow(unsafe_code)]
unsafe impl<T: Zeroable + Sync> Sync for ZeroedSlice<T> {}

impl<T: Zeroable> std::fmt::Debug for ZeroedSlice<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ZeroedSlice({} x {} bytes)", self.len, std::mem::size_of::<T>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_is_zeroed_aligned_and_writable() {
        let mut t = ZeroedSlice::<u64>::new(1000).expect("8 kB");
        assert_eq!(t.len(), 1000);
        assert!(t.iter().all(|&w| w == 0));
        assert_eq!(t.as_ptr() as usize % LINE, 0, "starts on a cache line");
        t[999] = 7;
        assert_eq!(t[999], 7);
        assert!(ZeroedSlice::<u64>::new(0).is_some_and(|t| t.is_empty()));
    }

    #[test]
    fn a_size_the_system_refuses_is_none_not_an_abort() {
        // 2^50 bytes: more than the whole user address space of x86-64 (2^47) and aarch64
        // (2^48), which no system grants, even one that overcommits without limit.
        assert!(ZeroedSlice::<u64>::new(1 << 47).is_none());
        assert!(ZeroedSlice::<u64>::new(usize::MAX / 4).is_none(), "a size that overflows");
    }

    #[test]
    fn a_table_the_size_of_the_machines_memory_is_refused_though_the_system_would_overcommit_it() {
        let limit = memory_limit();
        if limit == usize::MAX {
            println!("skipped: the machine's memory is not known here");
            return;
        }
        // Linux grants a lazily zeroed block of the whole memory (overcommit); filling it would
        // get the engine killed, so it is refused, and three quarters of it less a line are not.
        assert!(ZeroedSlice::<u64>::new(limit / 3 * 4 / 8).is_none());
        assert!(ZeroedSlice::<u64>::new(limit / 8 - 8).is_some());
    }
}
