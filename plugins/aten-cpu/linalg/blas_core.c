/* blas_core.c — the CPU's features, OpenBLAS's x86 core types and the choice between them
 * (see blas_core.h).
 *
 * The levels are kernel generations as far as sgemm is concerned: SSE2, SSE3, SSSE3/SSE4,
 * AVX (with AMD's FMA4 parts), AVX2 + FMA, AVX-512, AVX-512 with BF16, AMX. Within a level
 * the library's own pick is kept (Zen and Haswell differ in tuning, not in what they
 * execute); only a pick from a lower level than the CPU runs is worth a second load. The
 * features come from the documented cpuid leaves (1, 7.0, 7.1 and 0x80000001) and XCR0.
 */
#include "linalg/blas_core.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* Which vendor the automatic choice forces a core type for; 0: never forced by it. */
enum { NOT_PICKED, PICK_ANY, PICK_AMD, PICK_OTHER };

typedef struct Row {
    TsBlasCore core;
    int pick;
} Row;

#define SSE3 TS_CPU_SSE3
#define SSSE3 (SSE3 | TS_CPU_SSSE3)
#define SSE41 (SSSE3 | TS_CPU_SSE41)
#define SSE42 (SSE41 | TS_CPU_SSE42)
#define AVX (SSE42 | TS_CPU_AVX)
#define AVX2 (AVX | TS_CPU_FMA | TS_CPU_AVX2)
#define AVX512 (AVX2 | TS_CPU_AVX512)

/* Every name OpenBLAS's dynamic.c accepts for x86-64, in its order, with Unknown (what it
 * reports for a CPU none of them fit) and SapphireRapids (0.3.22 on). */
static const Row rows[] = {
    { { "Unknown", 0, 0 }, NOT_PICKED },
    { { "Katmai", 1, 0 }, NOT_PICKED },
    { { "Coppermine", 1, 0 }, NOT_PICKED },
    { { "Northwood", 1, 0 }, NOT_PICKED },
    { { "Prescott", 2, SSE3 }, NOT_PICKED },
    { { "Banias", 1, 0 }, NOT_PICKED },
    { { "Atom", 2, SSSE3 }, NOT_PICKED },
    { { "Core2", 3, SSSE3 }, NOT_PICKED },
    { { "Penryn", 3, SSE41 }, NOT_PICKED },
    { { "Dunnington", 3, SSE41 }, NOT_PICKED },
    { { "Nehalem", 3, SSE42 }, PICK_ANY },
    { { "Athlon", 1, 0 }, NOT_PICKED },
    { { "Opteron", 1, 0 }, NOT_PICKED },
    { { "Opteron_SSE3", 2, SSE3 }, NOT_PICKED },
    { { "Barcelona", 2, SSE3 | TS_CPU_SSE4A }, NOT_PICKED },
    { { "Nano", 2, SSE3 }, NOT_PICKED },
    { { "Sandybridge", 4, AVX }, PICK_ANY },
    { { "Bobcat", 2, SSSE3 | TS_CPU_SSE4A }, NOT_PICKED },
    { { "Bulldozer", 4, AVX | TS_CPU_SSE4A | TS_CPU_FMA4 }, NOT_PICKED },
    { { "Piledriver", 4, AVX | TS_CPU_SSE4A | TS_CPU_FMA4 | TS_CPU_FMA }, NOT_PICKED },
    { { "Haswell", 5, AVX2 }, PICK_OTHER },
    { { "Steamroller", 4, AVX | TS_CPU_SSE4A | TS_CPU_FMA4 | TS_CPU_FMA }, NOT_PICKED },
    { { "Excavator", 4, AVX2 | TS_CPU_SSE4A | TS_CPU_FMA4 }, NOT_PICKED },
    { { "Zen", 5, AVX2 }, PICK_AMD },
    { { "SkylakeX", 6, AVX512 }, PICK_ANY },
    { { "Cooperlake", 7, AVX512 | TS_CPU_AVX512_BF16 }, PICK_ANY },
    { { "SapphireRapids", 8, AVX512 | TS_CPU_AVX512_BF16 | TS_CPU_AMX }, PICK_ANY },
};

#define N_ROWS (sizeof rows / sizeof *rows)

static const char *const feature_names[TS_CPU__COUNT] = {
    "sse3", "ssse3", "sse4.1", "sse4.2", "sse4a", "avx", "fma", "fma4", "avx2", "avx512",
    "avx512-bf16", "amx", "amd",
};

#if defined(__x86_64__) || defined(__i386__)
/* The registers the OS saves on a context switch (XCR0); valid only where cpuid says OSXSAVE. */
static unsigned long long xcr0(void)
{
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

static unsigned bit(unsigned reg, int n, unsigned feature) { return (reg >> n & 1) ? feature : 0; }

unsigned ts_blas_cpu_features(void)
{
    unsigned a, b, c, d, f = 0;
    unsigned v[3], max = __get_cpuid_max(0, &v[0]);
    if (max < 1)
        return 0;
    char vendor[13];
    __cpuid(0, a, v[0], v[2], v[1]);               /* ebx, edx, ecx spell the vendor */
    memcpy(vendor, v, 12);
    vendor[12] = '\0';
    if (strcmp(vendor, "AuthenticAMD") == 0 || strcmp(vendor, "HygonGenuine") == 0)
        f |= TS_CPU_AMD;
    __cpuid(1, a, b, c, d);
    f |= bit(c, 0, TS_CPU_SSE3) | bit(c, 9, TS_CPU_SSSE3) | bit(c, 19, TS_CPU_SSE41) |
         bit(c, 20, TS_CPU_SSE42);
    unsigned long long saved = (c >> 27 & 1) ? xcr0() : 0;     /* OSXSAVE */
    bool ymm = (saved & 0x6) == 0x6;                            /* SSE and AVX state */
    bool zmm = ymm && (saved & 0xe0) == 0xe0;                   /* opmask, ZMM_Hi256, Hi16_ZMM */
    bool tiles = (saved & 0x60000) == 0x60000;                  /* XTILECFG, XTILEDATA */
    if (ymm)
        f |= bit(c, 28, TS_CPU_AVX) | bit(c, 12, TS_CPU_FMA);
    unsigned ext_max = __get_cpuid_max(0x80000000, &b);
    if (ext_max >= 0x80000001 && __get_cpuid(0x80000001, &a, &b, &c, &d))
        f |= bit(c, 6, TS_CPU_SSE4A) | (ymm ? bit(c, 16, TS_CPU_FMA4) : 0);
    if (max >= 7 && ymm) {
        __cpuid_count(7, 0, a, b, c, d);
        unsigned sub = a;
        f |= bit(b, 5, TS_CPU_AVX2);
        const unsigned avx512 = 1u << 16 | 1u << 17 | 1u << 28 | 1u << 30 | 1u << 31;
        if (zmm && (b & avx512) == avx512)             /* F, DQ, CD, BW, VL */
            f |= TS_CPU_AVX512;
        if ((f & TS_CPU_AVX512) && tiles && (d >> 22 & 1) && (d >> 24 & 1))
            f |= TS_CPU_AMX;                           /* AMX-BF16, AMX-TILE */
        if ((f & TS_CPU_AVX512) && sub >= 1) {
            __cpuid_count(7, 1, a, b, c, d);
            f |= bit(a, 5, TS_CPU_AVX512_BF16);
        }
    }
    return f;
}
#else
unsigned ts_blas_cpu_features(void) { return 0; }
#endif

void ts_blas_feature_names(unsigned features, char *buf, size_t size)
{
    size_t used = 0;
    if (size)
        buf[0] = '\0';
    for (int i = 0; i < TS_CPU__COUNT && used < size; i++)
        if (features >> i & 1)
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? " " : "",
                                     feature_names[i]);
}

static const Row *find_row(const char *name)
{
    for (size_t i = 0; name && i < N_ROWS; i++)
        if (strcasecmp(name, rows[i].core.name) == 0)
            return &rows[i];
    return NULL;
}

const TsBlasCore *ts_blas_core_find(const char *name)
{
    const Row *r = find_row(name);
    return r ? &r->core : NULL;
}

void ts_blas_core_names(char *buf, size_t size)
{
    size_t used = 0;
    if (size)
        buf[0] = '\0';
    for (size_t i = 1; i < N_ROWS && used < size; i++)      /* not Unknown: never forced */
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i > 1 ? ", " : "",
                                 rows[i].core.name);
}

static bool picked_for(const Row *r, unsigned features)
{
    bool amd = features & TS_CPU_AMD;
    return r->pick == PICK_ANY || (r->pick == PICK_AMD && amd) || (r->pick == PICK_OTHER && !amd);
}

size_t ts_blas_core_candidates(unsigned features, const char *reported, const TsBlasCore **out,
                               size_t max)
{
    const Row *now = find_row(reported);
    if (!now)
        return 0;
    size_t n = 0;
    for (size_t i = N_ROWS; i-- > 0 && n < max;) {
        const Row *r = &rows[i];
        if (r->core.level > now->core.level && picked_for(r, features) &&
            (r->core.needs & ~features) == 0)
            out[n++] = &r->core;
    }
    return n;
}
