#!/usr/bin/env bash
# Cross-builds hisha.exe for 64-bit Windows (x86_64-pc-windows-gnu) from Linux, release profile,
# into target/x86_64-pc-windows-gnu/release/hisha.exe (under $CARGO_TARGET_DIR where that is set).
# The net and the book are inside the exe: it is the only file a user needs. Needs rustup's
# Windows standard library and the MinGW-w64 linker (cargo's default linker for the target,
# found on PATH, so no .cargo/config.toml is needed):
#   rustup target add x86_64-pc-windows-gnu
#   apt-get install gcc-mingw-w64-x86-64        (Debian, Ubuntu)
# Exits 2, naming what is missing, when either is not installed; extra arguments go to cargo.
# The Wine smoke test (tests/cli_tools/windows.rs) runs this script too, which is a no-op when
# the exe is up to date.
set -euo pipefail
cd "$(dirname "$0")/.."

target=x86_64-pc-windows-gnu
linker=${CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER:-x86_64-w64-mingw32-gcc}

missing=()
libdir=$("${RUSTC:-rustc}" --print target-libdir --target "$target" 2>/dev/null || true)
if [ -z "$libdir" ] || ! compgen -G "$libdir/libstd-*.rlib" >/dev/null; then
    missing+=("the Rust standard library for $target (rustup target add $target)")
fi
if ! command -v "$linker" >/dev/null 2>&1; then
    missing+=("the linker $linker (apt-get install gcc-mingw-w64-x86-64)")
fi
if [ ${#missing[@]} -gt 0 ]; then
    for m in "${missing[@]}"; do echo "build-windows: missing $m" >&2; done
    exit 2
fi

"${CARGO:-cargo}" build --release --target "$target" --bin hisha "$@"
echo "built ${CARGO_TARGET_DIR:-target}/$target/release/hisha.exe" >&2
