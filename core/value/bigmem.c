/* bigmem.c — big blocks (lists' and dicts' arrays, tensors' storage, cached weights) in
 * huge pages where the kernel has them.
 *
 * A list of 300k values is 4.8 MB: from malloc it is a fresh mapping whose 1,200 pages the
 * kernel faults in and zeroes one at a time, and on a virtual machine each fault costs a
 * microsecond or more (a 5 MB array: 2-7 ms of faults here against 0.8 ms in 2 MB pages);
 * a model's first call faults in every activation and every reordered weight the same way.
 * Blocks of TS_BIG_MIN bytes and more therefore live in mappings of their own, starting at
 * a 2 MB boundary and marked MADV_HUGEPAGE, so that with transparent huge pages on "always"
 * or "madvise" (Linux's default) each whole 2 MB inside is one fault; the tail past the
 * last whole 2 MB stays in small pages, so no block holds a huge page it mostly does not
 * use. Growing moves the page tables (mremap), never the bytes. Smaller blocks stay with
 * malloc, and so does everything under AddressSanitizer, which must see each block. Where
 * the kernel has no huge pages the mappings still work, in small pages, as malloc's would.
 *
 * The caller passes the size it allocated with back on every call: that size alone says
 * which allocator owns the block.
 *
 * A block that keeps growing (a list built by append) asks for ts_big_grow_size's size: from
 * 512 KB on, whole 2 MB. A 2 MB stretch first touched while it was the mapping's partial tail
 * stays in small pages for good, so growing by half again left all but the first stretch of
 * a 4.8 MB list in small pages (1,000 faults); jumping to a whole huge page at 512 KB costs at
 * most 1.5 MB of room the list has not filled yet.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE          /* mremap */
#endif
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tscript/value.h"

#ifdef __has_feature                      /* clang's way of saying it */
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

#if defined(__linux__) && !defined(__SANITIZE_ADDRESS__) && !defined(UNDER_ASAN)
#include <sys/mman.h>
#define HAVE_BIG 1
#endif

#define HUGE_PAGE ((size_t)2 << 20)
#define GROW_BIG_MIN ((size_t)512 << 10)

#ifdef HAVE_BIG
static bool is_big(size_t n)
{
    return n >= TS_BIG_MIN;
}

/* n rounded up to whole pages, the length of its mapping; 0 when that overflows. Only the
 * 2 MB stretches inside a mapping get huge pages, so its tail is small pages rather than
 * a huge page mostly unused. */
static size_t round_pages(size_t n)
{
    long ps = sysconf(_SC_PAGESIZE);   /* asked each time: only big blocks come here */
    size_t page = ps > 0 && ((size_t)ps & ((size_t)ps - 1)) == 0 ? (size_t)ps : 4096;
    if (n > SIZE_MAX - (page - 1))
        return 0;
    return (n + page - 1) & ~(page - 1);
}

/* A fresh mapping of len bytes (whole pages) at a huge page boundary. */
static void *map_aligned(size_t len)
{
    if (len == 0 || len > SIZE_MAX - HUGE_PAGE)
        return NULL;
    size_t span = len + HUGE_PAGE;
    char *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    uintptr_t at = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    size_t head = at - (uintptr_t)p, tail = span - head - len;
    if (head)
        munmap(p, head);
    if (tail)
        munmap((char *)at + len, tail);
    /* advice only: a kernel without transparent huge pages refuses it, and small pages
     * serve as before */
    (void)madvise((void *)at, len, MADV_HUGEPAGE);
    return (void *)at;
}

void *ts_big_alloc(size_t n)
{
    if (!is_big(n))
        return malloc(n ? n : 1);
    return map_aligned(round_pages(n));
}

void *ts_big_realloc(void *p, size_t old_size, size_t new_size)
{
    if (!p)
        old_size = 0;
    bool was_big = is_big(old_size), big = is_big(new_size);
    if (!was_big && !big)
        return realloc(p, new_size ? new_size : 1);
    if (!was_big) {
        void *q = ts_big_alloc(new_size);
        if (!q)
            return NULL;
        if (p)
            memcpy(q, p, old_size);
        free(p);
        return q;
    }
    size_t had = round_pages(old_size);
    if (!big) {
        void *q = malloc(new_size ? new_size : 1);
        if (!q)
            return NULL;
        memcpy(q, p, new_size);
        munmap(p, had);
        return q;
    }
    size_t want = round_pages(new_size);
    if (want == 0)
        return NULL;
    if (want <= had) {
        if (want < had)
            munmap((char *)p + want, had - want);
        return p;
    }
    void *q = mremap(p, had, want, 0);           /* in place, when the space after is free */
    if (q != MAP_FAILED)
        return q;
    q = map_aligned(want);
    if (!q)
        return NULL;
    /* the pages move into the new mapping's start: page tables, not bytes */
    if (mremap(p, had, had, MREMAP_MAYMOVE | MREMAP_FIXED, q) == MAP_FAILED) {
        memcpy(q, p, had);
        munmap(p, had);
    }
    return q;
}

void ts_big_free(void *p, size_t size)
{
    if (!p)
        return;
    if (is_big(size))
        munmap(p, round_pages(size));
    else
        free(p);
}
#else
void *ts_big_alloc(size_t n)
{
    return malloc(n ? n : 1);
}

void *ts_big_realloc(void *p, size_t old_size, size_t new_size)
{
    (void)old_size;
    return realloc(p, new_size ? new_size : 1);
}

void ts_big_free(void *p, size_t size)
{
    (void)size;
    free(p);
}
#endif

/* Arithmetic only, the same with or without huge mappings (under ASan the bigger size goes
 * to malloc, as any size does). */
size_t ts_big_grow_size(size_t n)
{
    if (n < GROW_BIG_MIN || n > SIZE_MAX - (HUGE_PAGE - 1))
        return n;
    return (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}
