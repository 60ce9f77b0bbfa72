//! Large tables of zeros (the transposition table, the mate table): allocated fallibly, so that a
//! size the system refuses is an answer (`None`) and not an abort, and zeroed lazily: the memory
//! comes from `calloc`, which takes a large block straight from the system as fresh pages that the
//! kernel zeroes when each is first touched, so a table of gigabytes costs nothing until it is used.
//!
//! Those first touches are not free: on a virtual machine whose host backs the guest's memory
//! lazily, a fresh 2 MiB page took 2.7 ms here, and a new 64 MiB table stalled the first searches
//! of a game for up to 600 ms (the README's byoyomi-100 match lost games on time). A table the
//! search uses on every move therefore asks for its pages at once, on a thread of its own
//! ([`ZeroedSlice::populate_in_background`]), and is cleared by writing zeros over it in place
//! ([`ZeroedSlice::zero`]) instead of being replaced by a fresh one.
//!
//! Rust's `alloc_zeroed` calls `calloc` only for alignments up to 16 bytes (above, it writes the
//! zeros itself), so the block is requested with 16-byte alignment and one cache line more, and
//! the slice starts at its first 64-byte boundary.
//!
//! A table of 2 MiB or more starts on a 2 MiB boundary instead (the block is that much larger,
//! which costs nothing until touched) and, on Linux, is marked for transparent huge pages
//! (`madvise(MADV_HUGEPAGE)`, which the kernel's default `madvise` mode waits for): the search
//! reads its table at random, and with 4 KiB pages nearly every probe missed the TLB (measured
//! with `go nodes` and a 64 MiB table: see the commit that added it).

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ptr::NonNull;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Cache line: every table starts on one.
const LINE: usize = 64;

/// A huge page of x86-64 and aarch64 Linux: tables at least this large start on one.
const HUGE_PAGE: usize = 2 << 20;

/// Asks Linux to back `len` bytes from `start` (both multiples of [`HUGE_PAGE`]) with transparent
/// huge pages. Advice only: a kernel without them, or a refusal, leaves ordinary pages.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge_pages(start: *mut u8, len: usize) {
    // From the C library that std links on Linux; MADV_HUGEPAGE is 14 on every Linux architecture.
    unsafe extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    const MADV_HUGEPAGE: i32 = 14;
    // SAFETY: the range lies inside a block this module allocated and still owns; madvise with
    // MADV_HUGEPAGE changes no contents and reports a failure through its return value only.
    let rc = unsafe { madvise(start.cast(), len, MADV_HUGEPAGE) };
    if rc != 0 {
        log::debug!("madvise(MADV_HUGEPAGE) refused for {len} bytes; ordinary pages");
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *mut u8, _len: usize) {}

/// Asks Linux to provide (allocate and zero) the pages of `len` bytes from address `start` now,
/// without changing what they hold (`MADV_POPULATE_WRITE`, Linux 5.14). False when the kernel
/// refuses (an older one): the pages then come when first touched, as without it.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn populate_pages(start: usize, len: usize) -> bool {
    unsafe extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    const MADV_POPULATE_WRITE: i32 = 23;
    // SAFETY: the caller passes a range inside a block that outlives the call (see `Populator`);
    // MADV_POPULATE_WRITE only faults pages in, leaving their contents as they are, so a search
    // writing to the same memory meanwhile sees no change.
    unsafe { madvise(start as *mut std::ffi::c_void, len, MADV_POPULATE_WRITE) == 0 }
}

#[cfg(not(target_os = "linux"))]
fn populate_pages(_start: usize, _len: usize) -> bool {
    false
}

/// The thread that has the system provide a table's pages ahead of the search
/// ([`ZeroedSlice::populate_in_background`]); the table stops and joins it before its memory is
/// freed.
struct Populator {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Populator {
    /// Populates `len` bytes from `start` (a multiple of [`HUGE_PAGE`] and an address aligned to
    /// one) a huge page at a time, until done, refused or stopped.
    fn start(start: usize, len: usize) -> Populator {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let work = move || {
            let mut at = 0;
            while at < len && !flag.load(Ordering::Relaxed) && populate_pages(start + at, HUGE_PAGE.min(len - at)) {
                at += HUGE_PAGE;
            }
        };
        let handle = std::thread::Builder::new().name("table pages".into()).spawn(work);
        if let Err(e) = &handle {
            log::debug!("no thread to provide the table's pages ahead of use: {e}");
        }
        Populator { stop, handle: handle.ok() }
    }

    /// Waits until the thread is done or `deadline` passes; true if it is done.
    fn wait(&self, deadline: Instant) -> bool {
        loop {
            let done = self.handle.as_ref().is_none_or(JoinHandle::is_finished);
            if done || Instant::now() >= deadline {
                return done;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

impl Drop for Populator {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

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
#[allow(unsafe_code)]
// SAFETY: every bit pattern is a valid i16; 2-byte alignment.
unsafe impl Zeroable for i16 {}

/// A slice of `len` zeroed values of `T`, starting on a cache line.
pub(crate) struct ZeroedSlice<T: Zeroable> {
    /// The block as allocated (freed with `layout`).
    block: NonNull<u8>,
    layout: Layout,
    /// The first element, on the block's first cache-line boundary.
    data: NonNull<T>,
    len: usize,
    /// The thread providing its pages, once asked for ([`ZeroedSlice::populate_in_background`]).
    populator: Option<Populator>,
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
        let size = len.checked_mul(std::mem::size_of::<T>())?;
        let align = if size >= HUGE_PAGE { HUGE_PAGE } else { LINE };
        // The slack for the alignment is never touched: only the table counts against the limit.
        if size.checked_add(LINE)? > memory_limit() {
            return None;
        }
        let bytes = size.checked_add(align)?;
        let layout = Layout::from_size_align(bytes, 16).ok()?;
        // SAFETY: the layout's size is at least LINE bytes, never zero.
        let block = NonNull::new(unsafe { alloc_zeroed(layout) })?;
        let offset = (align - block.as_ptr() as usize % align) % align;
        // SAFETY: `offset` < align, so the pointer stays inside the block; it is non-null.
        let start = unsafe { block.as_ptr().add(offset) };
        if align == HUGE_PAGE {
            advise_huge_pages(start, size / HUGE_PAGE * HUGE_PAGE);
        }
        // SAFETY: `start` lies inside the block and is non-null.
        let data = unsafe { NonNull::new_unchecked(start.cast::<T>()) };
        Some(ZeroedSlice { block, layout, data, len, populator: None })
    }

    /// Writes zeros over every value, in place: a table the search has used is forgotten without
    /// handing its pages back to the system (which would have to provide them again, inside the
    /// next game's thinking time).
    #[allow(unsafe_code)]
    pub(crate) fn zero(&mut self) {
        // SAFETY: `data` is followed by `len` values of the block; zero bytes are a valid T
        // (`Zeroable`), and `&mut self` makes this the only access.
        unsafe { std::ptr::write_bytes(self.data.as_ptr(), 0, self.len) };
    }

    /// Has the system provide the pages of a table of at least [`HUGE_PAGE`] bytes now, on a
    /// thread of its own, instead of when the search first touches each (see the module
    /// documentation). The values stay as they are, so the table may be used meanwhile. Once
    /// per table: a later call does nothing.
    pub(crate) fn populate_in_background(&mut self) {
        let size = self.len * std::mem::size_of::<T>();
        if self.populator.is_none() && size >= HUGE_PAGE {
            self.populator = Some(Populator::start(self.data.as_ptr() as usize, size / HUGE_PAGE * HUGE_PAGE));
        }
    }

    /// Waits until the pages asked for by [`ZeroedSlice::populate_in_background`] are provided,
    /// or `deadline` passes (the thread goes on then); true if they are (or none were asked for).
    pub(crate) fn wait_populated(&self, deadline: Instant) -> bool {
        self.populator.as_ref().is_none_or(|p| p.wait(deadline))
    }

    /// True once [`ZeroedSlice::populate_in_background`] was asked for.
    pub(crate) fn is_populated(&self) -> bool {
        self.populator.is_some()
    }
}

impl<T: Zeroable> std::ops::Deref for ZeroedSlice<T> {
    type Target = [T];

    #[inline(always)]
    #[allow(unsafe_code)]
    fn deref(&self) -> &[T] {
        // SAFETY: `data` is aligned for T (a cache line or a huge page, T's alignment divides
        // both), followed by `len * size_of::<T>()` zeroed bytes of the block (which has that
        // alignment's bytes of slack for the offset), and zero bytes are a valid T (`Zeroable`). The block lives as long as `self`.
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
        // The populating thread is stopped and joined first: it must not outlive the memory.
        self.populator = None;
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

impl<T: Zeroable + Copy> ZeroedSlice<T> {
    /// A copy of `values` in a table of its own (on huge pages when large: the network's
    /// weights, read at random rows on every move). Aborts as `Vec` does when the system has no
    /// memory for it.
    pub(crate) fn copied(values: &[T]) -> ZeroedSlice<T> {
        let mut table = ZeroedSlice::zeroed(values.len());
        table.copy_from_slice(values);
        table
    }

    /// `len` zeroed values (on huge pages when large), for tables of a fixed size that every
    /// search needs. Aborts as `Vec` does when the system has no memory for it.
    pub(crate) fn zeroed(len: usize) -> ZeroedSlice<T> {
        ZeroedSlice::new(len)
            .unwrap_or_else(|| std::alloc::handle_alloc_error(Layout::array::<T>(len).unwrap_or(Layout::new::<T>())))
    }
}

impl<T: Zeroable + Copy> Clone for ZeroedSlice<T> {
    fn clone(&self) -> ZeroedSlice<T> {
        ZeroedSlice::copied(self)
    }
}

impl<T: Zeroable + PartialEq> PartialEq for ZeroedSlice<T> {
    fn eq(&self, other: &ZeroedSlice<T>) -> bool {
        **self == **other
    }
}

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
        let mut big = ZeroedSlice::<u64>::new(3 << 18).expect("6 MiB");
        assert_eq!(big.as_ptr() as usize % HUGE_PAGE, 0, "a large table starts on a huge page");
        assert!(big.iter().all(|&w| w == 0));
        big[(3 << 18) - 1] = 9;
        assert_eq!(big[(3 << 18) - 1], 9);
    }

    #[test]
    fn zeroing_in_place_forgets_every_value() {
        let mut t = ZeroedSlice::<u64>::new(3 << 18).expect("6 MiB");
        t.iter_mut().enumerate().for_each(|(i, w)| *w = i as u64 + 1);
        let at = t.as_ptr();
        t.zero();
        assert!(t.iter().all(|&w| w == 0));
        assert_eq!(t.as_ptr(), at, "the same memory");
    }

    #[test]
    fn populating_the_pages_keeps_the_values() {
        let mut t = ZeroedSlice::<u64>::new(5 << 18).expect("10 MiB");
        assert!(!t.is_populated());
        for i in (0..t.len()).step_by(1000) {
            t[i] = i as u64 ^ 0x5A5A;
        }
        t.populate_in_background();
        assert!(t.is_populated());
        // Written while the thread runs, and after it is done: nothing is lost either way.
        t[7] = 77;
        assert!(t.wait_populated(Instant::now() + Duration::from_secs(60)), "10 MiB within a minute");
        t[8] = 88;
        for i in (0..t.len()).step_by(1000) {
            assert_eq!(t[i], i as u64 ^ 0x5A5A, "value {i}");
        }
        assert_eq!((t[7], t[8], t[9]), (77, 88, 0));
        // A second call starts nothing; a small table has nothing to populate.
        t.populate_in_background();
        let mut small = ZeroedSlice::<u64>::new(1000).expect("8 kB");
        small.populate_in_background();
        assert!(!small.is_populated());
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
