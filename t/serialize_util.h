/* serialize_util.h — what the serialize tests (t/zip.c, t/unpickle.c, t/pickle.c, t/npy.c)
 * share: reading files into memory, temporary files, and finding a python3 that has a
 * module (torch, numpy) to check tscript's files against the real thing.
 *
 * Tests that need python skip those checks (TAP "# SKIP") when no python3 has the module.
 * $TS_PYTHON names the interpreter to try first; then python3 on PATH, then /usr/bin/python3
 * (a pyenv python3 on PATH often lacks the system's torch).
 */
#ifndef TS_SERIALIZE_UTIL_H
#define TS_SERIALIZE_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

#define DATA_DIR TS_TEST_SRCDIR "/t/data/serialize"

/* The whole file, malloc'd (NULL if unreadable). */
__attribute__((unused))
static unsigned char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        unsigned char *nb = realloc(buf, cap *= 2);
        if (!nb)
            free(buf);
        buf = nb;
    }
    fclose(f);
    *size = n;
    return buf;
}

__attribute__((unused))
static int spit(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int rc = fwrite(data, 1, size, f) == size ? 0 : -1;
    return fclose(f) == 0 ? rc : -1;
}

/* A fresh temporary directory (removed by cleanup_tmpdir), or NULL. */
static char tmpdir_path[64];

__attribute__((unused))
static const char *make_tmpdir(void)
{
    strcpy(tmpdir_path, "/tmp/ts-serialize-XXXXXX");
    return mkdtemp(tmpdir_path);
}

__attribute__((unused))
static void cleanup_tmpdir(void)
{
    char cmd[128];
    if (tmpdir_path[0]) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir_path);
        if (system(cmd) != 0)
            diag("could not remove %s", tmpdir_path);
    }
}

/* A python3 that can import module, or NULL: the interpreter's command. */
__attribute__((unused))
static const char *python_with(const char *module)
{
    static char found[2][256];
    static int tried[2];
    int slot = strcmp(module, "torch") == 0 ? 0 : 1;
    if (tried[slot])
        return found[slot][0] ? found[slot] : NULL;
    tried[slot] = 1;
    const char *candidates[] = {getenv("TS_PYTHON"), "python3", "/usr/bin/python3"};
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++) {
        char cmd[512];
        if (!candidates[i] || !candidates[i][0])
            continue;
        snprintf(cmd, sizeof cmd, "%s -c 'import %s' >/dev/null 2>&1", candidates[i], module);
        if (system(cmd) == 0) {
            snprintf(found[slot], sizeof found[slot], "%s", candidates[i]);
            return found[slot];
        }
    }
    return NULL;
}

/* Runs a shell command; its exit status (-1 if it could not run). Output goes to out
 * (malloc'd, NUL-terminated) when out is not NULL. */
__attribute__((unused))
static int run(const char *cmd, char **out)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, p);
        if (n < cap - 1)
            break;
        char *nb = realloc(buf, cap *= 2);
        if (!nb)
            free(buf);
        buf = nb;
    }
    int st = pclose(p);
    if (buf)
        buf[n] = '\0';
    if (out)
        *out = buf;
    else
        free(buf);
    return st == -1 ? -1 : WEXITSTATUS(st);
}

/* TAP for a check that cannot run here. */
__attribute__((unused))
static void skip(const char *why, const char *name)
{
    printf("ok %d - %s # SKIP %s\n", ++tap_n, name, why);
}

#endif
