/* A stand-in bcryptprimitives.dll for the Wine smoke test only (tests/cli_tools/wine.rs), never
 * shipped. Rust's standard library (1.78 and later) and the getrandom crate (under rand) import
 * ProcessPrng from bcryptprimitives.dll for random numbers; every Windows 10 and later has it, but
 * Wine 8.0 (Debian 12) has no such DLL and refuses to start hisha.exe. The test builds this with MinGW and
 * puts it beside hisha.exe in its temporary folder, only when Wine cannot start the exe without it.
 * ProcessPrng fills the buffer with random bytes and always succeeds; BCryptGenRandom with the
 * system's generator, which Wine has, does the same. */
#include <windows.h>
#include <bcrypt.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG chunk = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (BCryptGenRandom(NULL, data, chunk, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0) {
            return FALSE;
        }
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
