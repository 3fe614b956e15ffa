/*
 * bcryptprimitives.dll for Wine 8 (Debian 12), used only by
 * scripts/test-windows-wine.sh; never shipped.
 *
 * Why: since Go 1.22 the runtime of every Windows executable loads
 * ProcessPrng from bcryptprimitives.dll in the system folder at start
 * (runtime/os_windows.go) and dies with
 * "fatal error: bcryptprimitives.dll not found" when it is missing.
 * Windows 10 and later have the DLL; Wine 8 does not (Wine 9 added it).
 * This DLL exports the one function Go calls, filling the buffer from
 * RtlGenRandom (advapi32's SystemFunction036, which Wine implements on
 * the host's random source), so cross-built Go programs run under Wine.
 *
 * Build: x86_64-w64-mingw32-gcc -shared -O2 -o bcryptprimitives.dll \
 *        bcryptprimitives.c -ladvapi32
 * Install: copy into $WINEPREFIX/drive_c/windows/system32/.
 */
#include <windows.h>

/* RtlGenRandom is exported by name as SystemFunction036. */
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

/*
 * ProcessPrng fills len bytes at data with random bytes and returns TRUE,
 * as Windows documents it (it never fails there). RtlGenRandom takes a
 * ULONG, so a larger buffer is filled in pieces; a failure of the host's
 * source returns FALSE (Go then aborts, which is what it should do).
 */
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (!SystemFunction036(data, n))
            return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst; (void)reason; (void)reserved;
    return TRUE;
}
