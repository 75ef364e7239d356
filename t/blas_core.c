/* blas_core.c — which OpenBLAS core type a CPU deserves (plugins/aten-cpu/linalg/
 * blas_core.c), over CPUs this machine is not: the choice from a feature set and the core
 * the library reported, the core types by name, and the features' names; then this CPU's
 * features against what the kernel found (/proc/cpuinfo's flags).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "linalg/blas_core.h"

#define SSE (TS_CPU_SSE3 | TS_CPU_SSSE3 | TS_CPU_SSE41 | TS_CPU_SSE42)
#define AVX2 (SSE | TS_CPU_AVX | TS_CPU_FMA | TS_CPU_AVX2)
#define AVX512 (AVX2 | TS_CPU_AVX512)
#define XEON_AMX (AVX512 | TS_CPU_AVX512_BF16 | TS_CPU_AMX)   /* the Sapphire Rapids */
#define ZEN4 (AVX512 | TS_CPU_AVX512_BF16 | TS_CPU_SSE4A | TS_CPU_AMD)
#define ZEN2 (AVX2 | TS_CPU_SSE4A | TS_CPU_AMD)

static const struct {
    const char *cpu;
    unsigned features;
    const char *reported;
    const char *want;          /* the candidates, best first, ", "-separated */
} choices[] = {
    { "Xeon with AMX, Debian's 0.3.21 on it", XEON_AMX, "Prescott",
      "SapphireRapids, Cooperlake, SkylakeX, Haswell, Sandybridge, Nehalem" },
    { "Xeon with AMX, reported in other case", XEON_AMX, "prescott",
      "SapphireRapids, Cooperlake, SkylakeX, Haswell, Sandybridge, Nehalem" },
    { "Xeon with AMX, a newer OpenBLAS", XEON_AMX, "SapphireRapids", "" },
    { "Xeon with AMX, reported Cooperlake", XEON_AMX, "Cooperlake", "SapphireRapids" },
    { "Zen 4, as this machine", ZEN4, "Cooperlake", "" },
    { "Zen 4 misdetected", ZEN4, "Prescott", "Cooperlake, SkylakeX, Zen, Sandybridge, Nehalem" },
    { "Zen 4 taken for a Zen 2", ZEN4, "Zen", "Cooperlake, SkylakeX" },
    { "Zen 2", ZEN2, "Zen", "" },
    { "Zen 2 taken for Excavator", ZEN2, "Excavator", "Zen" },
    { "Zen 2 taken for Haswell: same generation, kept", ZEN2, "Haswell", "" },
    { "Skylake-X without BF16", AVX512, "Haswell", "SkylakeX" },
    { "Skylake client", AVX2, "Prescott", "Haswell, Sandybridge, Nehalem" },
    { "Skylake client, right", AVX2, "Haswell", "" },
    { "AVX2 without the OS saving ymm (AVX off)", SSE, "Prescott", "Nehalem" },
    { "AVX-512 named but the OS saves no zmm", AVX2, "SkylakeX", "" },
    { "an old CPU, SSE3 only", TS_CPU_SSE3, "Prescott", "" },
    { "an old CPU, Unknown reported", TS_CPU_SSE3, "Unknown", "" },
    { "a Haswell reported Unknown", AVX2, "Unknown", "Haswell, Sandybridge, Nehalem" },
    { "a core this table does not know: trusted", AVX2, "Zen5", "" },
    { "no name reported", AVX2, "", "" },
    { "not x86: no features", 0, "neoversen1", "" },
};

static void test_choices(void)
{
    for (size_t i = 0; i < sizeof choices / sizeof *choices; i++) {
        const TsBlasCore *c[8];
        size_t n = ts_blas_core_candidates(choices[i].features, choices[i].reported, c, 8);
        char got[256] = "";
        for (size_t j = 0; j < n; j++)
            snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", j ? ", " : "",
                     c[j]->name);
        is_str(got, choices[i].want, "%s: %s -> [%s]", choices[i].cpu, choices[i].reported,
               choices[i].want);
    }
    const TsBlasCore *c[2];
    is_int((long long)ts_blas_core_candidates(XEON_AMX, "Prescott", c, 2), 2,
           "at most max candidates");
    ok(!strcmp(c[0]->name, "SapphireRapids") && !strcmp(c[1]->name, "Cooperlake"),
       "... the best ones");
}

static void test_names(void)
{
    const TsBlasCore *c = ts_blas_core_find("skylakex");
    ok(c && !strcmp(c->name, "SkylakeX"), "a core type found by name, case aside");
    ok(c && (c->needs & TS_CPU_AVX512) && !(c->needs & TS_CPU_AVX512_BF16),
       "SkylakeX needs AVX-512, not its BF16");
    c = ts_blas_core_find("Zen");
    ok(c && (c->needs & TS_CPU_AVX2) && !(c->needs & TS_CPU_AMD),
       "Zen needs AVX2, on any vendor's CPU");
    c = ts_blas_core_find("Bulldozer");
    ok(c && (c->needs & TS_CPU_FMA4), "Bulldozer needs FMA4 (no Intel CPU has it)");
    ok(ts_blas_core_find("Skylakx") == NULL && ts_blas_core_find("") == NULL &&
           ts_blas_core_find(NULL) == NULL, "unknown names are not found");
    char buf[512];
    ts_blas_core_names(buf, sizeof buf);
    ok(!strncmp(buf, "Katmai, Coppermine, Northwood, Prescott, ", 41) &&
           strstr(buf, ", SkylakeX, Cooperlake, SapphireRapids") && !strstr(buf, "Unknown"),
       "the core types in OpenBLAS's order, Unknown left out: %s", buf);
    ts_blas_core_names(buf, 20);
    is_int((long long)strlen(buf), 19, "a short buffer is cut, terminated");
    ts_blas_feature_names(TS_CPU_SSE3 | TS_CPU_AVX512_BF16 | TS_CPU_AMX, buf, sizeof buf);
    is_str(buf, "sse3 avx512-bf16 amx", "features by name");
    ts_blas_feature_names(0, buf, sizeof buf);
    is_str(buf, "", "no features: empty");
}

/* The flags /proc/cpuinfo lists (which the kernel clears where it does not save the
 * registers), as " flag flag ... ". */
static int read_flags(char *buf, size_t size)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[8192];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f))
        if (!strncmp(line, "flags", 5) && strchr(line, ':')) {
            snprintf(buf, size, " %s", strchr(line, ':') + 1);
            buf[strcspn(buf, "\n")] = ' ';
            found = 1;
        }
    if (f)
        fclose(f);
    return found;
}

static int flag(const char *flags, const char *name)
{
    char word[64];
    snprintf(word, sizeof word, " %s ", name);
    return strstr(flags, word) != NULL;
}

static void test_this_cpu(void)
{
#if defined(__x86_64__) || defined(__i386__)
    char flags[8192];
    if (!read_flags(flags, sizeof flags)) {
        ok(1, "# SKIP no /proc/cpuinfo");
        return;
    }
    unsigned f = ts_blas_cpu_features();
    char names[256];
    ts_blas_feature_names(f, names, sizeof names);
    diag("this CPU: %s", names);
    static const struct {
        unsigned feature;
        const char *flags[5];
    } map[] = {
        { TS_CPU_SSE3, { "pni" } },
        { TS_CPU_SSSE3, { "ssse3" } },
        { TS_CPU_SSE42, { "sse4_2" } },
        { TS_CPU_AVX, { "avx" } },
        { TS_CPU_FMA, { "fma" } },
        { TS_CPU_AVX2, { "avx2" } },
        { TS_CPU_AVX512, { "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl" } },
        { TS_CPU_AMX, { "amx_tile", "amx_bf16" } },
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++) {
        int listed = 1;
        for (int j = 0; j < 5 && map[i].flags[j]; j++)
            listed &= flag(flags, map[i].flags[j]);
        char name[32];
        ts_blas_feature_names(map[i].feature, name, sizeof name);
        ok(!(f & map[i].feature) == !listed, "%s: %s as /proc/cpuinfo has it", name,
           listed ? "found" : "absent");
    }
    ok(!(f & TS_CPU_AVX512_BF16) == !(flag(flags, "avx512_bf16") && (f & TS_CPU_AVX512)),
       "avx512-bf16 as /proc/cpuinfo has it");
#else
    ok(ts_blas_cpu_features() == 0, "not x86: no features");
#endif
}

int main(void)
{
    test_choices();
    test_names();
    test_this_cpu();
    return done_testing();
}
