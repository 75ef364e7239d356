/* heap.c — the `tscript` process's malloc heap, in transparent huge pages.
 *
 * A program's small objects (strings, list and dict headers, tuples) come from malloc's
 * heap, which grows by brk 128 KB at a time and hands memory back at each free that leaves
 * 128 KB unused at its top. Each 4 KB page it touches is a page fault, and on a virtual
 * machine a fault costs microseconds: dict.py's 50k key strings took ~550 of them, a tenth
 * of its run. So, as glibc's own glibc.malloc.hugetlb=1 tunable does for a process that
 * sets it in its environment, the command grows the heap 16 MB at a time (address space;
 * a page is still only backed when touched), keeps up to 64 MB unused before trimming it,
 * and advises the first 16 MB into transparent huge pages (MADV_HUGEPAGE): one fault per
 * 2 MB. The cost is up to 2 MB more resident memory for a small program (its first huge
 * page); past the advised range the heap grows in small pages as before. This is the
 * program's choice, not the library's: an application embedding libtscript keeps its own
 * malloc policy. Off under AddressSanitizer (its allocator replaces malloc) and where glibc
 * or MADV_HUGEPAGE is missing.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE        /* sbrk */
#endif
#include <stdint.h>
#include <stdlib.h>

#include "cli.h"

#ifdef __has_feature
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(UNDER_ASAN)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

#define HUGE_PAGE ((uintptr_t)2 << 20)

void ts_cli_heap_setup(void)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(UNDER_ASAN)
    if (!mallopt(M_TOP_PAD, 16 << 20) || !mallopt(M_TRIM_THRESHOLD, 64 << 20))
        return;
    /* a block just under the mmap threshold comes from the heap: the brk that grows the
     * heap for it reaches 16 MB past it */
    void *p = malloc(120 << 10);
    if (!p)
        return;
    /* from the first 2 MB boundary 512 KB past it: a program whose heap stays small (most
     * scripts) faults its few pages as before and holds no huge page */
    uintptr_t lo = ((uintptr_t)p + ((uintptr_t)512 << 10) + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t hi = (uintptr_t)sbrk(0) & ~(HUGE_PAGE - 1);
    if (hi > lo && hi - lo <= ((uintptr_t)64 << 20))
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);   /* advice: failure is harmless */
    free(p);
#endif
}
