//! NNUE nets (YaneuraOu's `nn.bin`, what `EvalFile` and `hisha nnue export` read) on any bytes:
//! no panic, and no allocation larger than the file (plus the huge-page alignment of the weight
//! table) whatever the header says; a truncated file or one with bytes left over says where; a
//! net read writes back to the very bytes it was read from, evaluates positions within the
//! evaluation's bounds, the same with the scalar and the SIMD kernels, and the same updated move
//! by move as from scratch.
//!
//! The loader is also the only reader of the zlib-compressed built-in net, but only of its
//! inflated bytes (the embedded net is no input), so the target feeds `nn.bin` bytes.
//!
//! Input: first byte below 0x40: the rest is the file. Otherwise a valid net of a template
//! (`(byte - 0x40) % TEMPLATES`, small random K+P nets and the shipped HalfKP net) edited:
//! byte 1, as i8, grows (zeros) or cuts the file by that many bytes; byte 2, unless 0xFF, is the
//! length of a new description that follows; then patches of 3 bytes of offset (LE, modulo the
//! length) and the byte to put there.
#![no_main]

use hisha::eval::nnue::forward::MAX_EVAL;
use hisha::eval::nnue::{Accumulator, Architecture, DirtyPieces, FeatureSet, Kernel, Network, NnueError, Spread};
use hisha::{Handicap, Position};
use libfuzzer_sys::fuzz_target;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// The system allocator, noting the largest block asked for.
struct Watched;

static LARGEST: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Watched {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST.fetch_max(new_size, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static WATCHED: Watched = Watched;

/// What loading may allocate beyond the file's size: the weight table's alignment to a 2 MiB
/// huge page and a cache line (`src/zeroed.rs`), and small change.
const SLACK: usize = (2 << 20) + 4096;

/// The valid nets the edits start from: small K+P shapes with typical and full-range weights
/// (accumulators that wrap, clamps that saturate), and the net hisha ships.
fn templates() -> &'static Mutex<Vec<Vec<u8>>> {
    static T: OnceLock<Mutex<Vec<Vec<u8>>>> = OnceLock::new();
    T.get_or_init(|| {
        let kp = |l1, l2, l3| Architecture { features: FeatureSet::KP, l1, l2, l3 };
        let mut nets: Vec<Vec<u8>> = [
            (kp(32, 8, 8), Spread::Typical),
            (kp(32, 8, 8), Spread::Full),
            (kp(64, 16, 32), Spread::Full),
            (kp(32, 128, 8), Spread::Typical),
        ]
        .into_iter()
        .enumerate()
        .map(|(seed, (arch, spread))| Network::random(arch, seed as u64, spread).to_bytes())
        .collect();
        nets.extend(hisha::eval::nnue::builtin().map(|net| net.to_bytes()));
        Mutex::new(nets)
    })
}

/// Positions to evaluate: the start, a handicap, and two of the perft suite with promoted pieces
/// and pieces in hand, White to move (`tests/data/perft.txt`).
fn positions() -> Vec<Position> {
    [
        Handicap::Even.sfen(),
        Handicap::TwoPiece.sfen(),
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        "l4S2l/4g1gs1/5p1p1/pr2N1pkp/4Gn3/PP3PPPP/2GPP4/1K7/L3r+s2L w BS2N5Pb 1",
    ]
    .into_iter()
    .map(|sfen| Position::from_sfen(sfen).expect("a valid position"))
    .collect()
}

/// Moves from the start through a capture, a promotion, a drop and both kings' moves.
const LINE: [&str; 8] = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "5a4b", "5i5h", "4b3b"];

/// The evaluations of [`positions`], and the evaluations along [`LINE`], each updated move by
/// move and checked against the evaluation from scratch.
fn evaluations(net: &Network) -> Vec<i32> {
    let mut values: Vec<_> = positions().iter().map(|pos| net.evaluate_position(pos)).collect();
    let mut pos = Position::startpos();
    let mut acc = Accumulator::default();
    net.refresh(&pos, &mut acc);
    for text in LINE {
        let m = pos.parse_usi_move(text).expect("the line is legal");
        let dirty = DirtyPieces::of_move(&pos, m);
        pos.do_move(m);
        let mut next = Accumulator::default();
        net.update(&acc, &dirty, &pos, &mut next);
        let fresh = net.evaluate_position(&pos);
        assert_eq!(net.evaluate(&next, pos.side_to_move()), fresh, "after {text}: updated and from scratch");
        values.push(fresh);
        acc = next;
    }
    values
}

fn check_net(mut net: Network, file: &[u8]) {
    assert!(net.to_bytes() == file, "a net read writes back to the bytes it was read from");
    let arch = net.architecture();
    assert!(arch.is_supported(), "{arch:?}");
    let values = evaluations(&net);
    assert!(values.iter().all(|v| (-MAX_EVAL..=MAX_EVAL).contains(v)), "{values:?}");
    net.set_kernel(Kernel::Scalar);
    assert_eq!(evaluations(&net), values, "the scalar kernel and the one this machine picked");
}

fn check_error(e: &NnueError, file: &[u8]) {
    match *e {
        NnueError::Truncated { at, needed, .. } => {
            assert_eq!(at, file.len(), "{e}");
            assert!(needed > at, "{e}");
        }
        NnueError::TrailingBytes { extra, size } => assert_eq!(size + extra, file.len(), "{e}"),
        NnueError::BadVersion { found } => {
            assert_eq!(Some(found.to_le_bytes().as_slice()), file.get(..4), "{e}");
        }
        _ => {}
    }
    assert!(!e.to_string().is_empty());
}

fn check(file: &[u8]) {
    LARGEST.store(0, Ordering::Relaxed);
    let read = Network::load(file);
    let largest = LARGEST.load(Ordering::Relaxed);
    assert!(largest <= file.len() + SLACK, "{largest} bytes allocated for a file of {}", file.len());
    match read {
        Ok(net) => check_net(net, file),
        Err(e) => check_error(&e, file),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    if selector < 0x40 {
        return check(rest);
    }
    let mut templates = templates().lock().unwrap_or_else(|e| e.into_inner());
    let count = templates.len();
    let template = &mut templates[usize::from(selector - 0x40) % count];
    let (resize, rest) = rest.split_first().map_or((0, rest), |(&b, r)| (b as i8, r));
    let (description, rest) = match rest.split_first() {
        Some((&n, r)) if n != 0xFF => {
            let n = usize::from(n).min(r.len());
            (Some(&r[..n]), &r[n..])
        }
        Some((_, r)) => (None, r),
        None => (None, rest),
    };
    let patches =
        rest.chunks_exact(4).map(|p| (usize::from(p[0]) | usize::from(p[1]) << 8 | usize::from(p[2]) << 16, p[3]));
    if description.is_none() && resize <= 0 {
        // Edited in place and restored: no copy of the (up to 16 MB) template.
        let len = template.len() - usize::from(resize.unsigned_abs()).min(template.len());
        let mut undo = Vec::new();
        for (at, byte) in patches {
            let at = at % template.len().max(1);
            undo.push((at, template[at]));
            template[at] = byte;
        }
        check(&template[..len]);
        for (at, byte) in undo.into_iter().rev() {
            template[at] = byte;
        }
        return;
    }
    let mut file = template.clone();
    drop(templates);
    if let Some(d) = description {
        let old = u32::from_le_bytes([file[8], file[9], file[10], file[11]]) as usize;
        file.splice(8..12 + old, (d.len() as u32).to_le_bytes().into_iter().chain(d.iter().copied()));
    }
    for (at, byte) in patches {
        let n = file.len().max(1);
        if let Some(b) = file.get_mut(at % n) {
            *b = byte;
        }
    }
    let len = file.len() as i64 + i64::from(resize);
    file.resize(len.max(0) as usize, 0);
    check(&file);
});
