/*
 * Test-only stand-in for bcryptprimitives.dll, for running agentchess.exe under Wine 8.
 *
 * Rust's standard library (and getrandom) import ProcessPrng from bcryptprimitives.dll, which
 * Windows 10 and 11 have and Wine 8 does not, so the .exe fails to load there (status
 * c0000135). This DLL exports ProcessPrng over advapi32's SystemFunction036 (RtlGenRandom),
 * which Wine does implement. tests/e2e/windows_wine.py builds it with the same mingw that
 * links the .exe and puts it on WINEPATH only; it is never shipped beside agentchess.exe.
 */
#include <windows.h>
#include <ntsecapi.h> /* RtlGenRandom, which is SystemFunction036 */

/* ProcessPrng takes a SIZE_T length, RtlGenRandom a ULONG one: feed it in pieces that fit.
 * The real ProcessPrng never fails; this one says so if RtlGenRandom does, rather than hand
 * back bytes it did not fill. */
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG piece = length > 0x40000000u ? 0x40000000u : (ULONG)length;
        if (!RtlGenRandom(data, piece))
            return FALSE;
        data += piece;
        length -= piece;
    }
    return TRUE;
}
