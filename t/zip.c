/* zip.c — tests of core/serialize/zip_read.c and zip_write.c: PyTorch's archives read
 * without copying, archives written that PyTorch, unzip and Python read, and hostile zips
 * refused with an error naming what is wrong (never a crash or a read outside the file).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "serialize/zip.h"
#include "serialize/zip_format.h"
#include "serialize_util.h"

static TsZip *open_fixture(const char *name, TsError *err)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", DATA_DIR, name);
    return ts_zip_open_file(path, err);
}

/* Is address p inside a mapping of a file whose path ends in suffix (per /proc/self/maps)? */
static int mapped_from(const void *p, const char *suffix)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[1024];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char *path = strchr(line, '/');
        if (sscanf(line, "%lx-%lx", &lo, &hi) != 2 || !path)
            continue;
        path[strcspn(path, "\n")] = '\0';
        size_t n = strlen(path), m = strlen(suffix);
        found = (uintptr_t)p >= lo && (uintptr_t)p < hi && n >= m &&
                strcmp(path + n - m, suffix) == 0;
    }
    if (f)
        fclose(f);
    return found;
}

static void test_pytorch_archive(void)
{
    TsError err = TS_ERROR_INIT;
    TsZip *z = open_fixture("module.pt", &err);
    if (!ok(z != NULL, "a torch.jit.save archive opens")) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return;
    }
    is_str(ts_zip_prefix(z), "module/", "its top folder");
    ok(ts_zip_find(z, "module/data.pkl") >= 0, "data.pkl is found by name");
    is_int(ts_zip_find(z, "module/nothing"), -1, "a missing name is -1");
    is_int(ts_zip_find(z, "module/data.pk"), -1, "a prefix of a name is not the name");
    size_t stored = 0, deflated = 0, aligned = 0, read_ok = 0;
    for (size_t i = 0; i < ts_zip_count(z); i++) {
        const TsZipEntry *e = ts_zip_entry(z, i);
        stored += e->method == TS_ZIP_STORED;
        deflated += e->method == TS_ZIP_DEFLATED;
        aligned += e->method != TS_ZIP_STORED || e->data_offset % 64 == 0;
        const void *data;
        size_t size;
        void *owned;
        if (ts_zip_read(z, i, true, &data, &size, &owned, &err) == 0 && size == e->size &&
            (owned != NULL) == (e->method == TS_ZIP_DEFLATED))
            read_ok++;
        else
            diag("%s: %s", e->name, err.msg ? err.msg : "wrong size or owner");
        free(owned);
        ts_error_clear(&err);
    }
    ok(stored > 0 && deflated > 0, "it has stored (%zu) and deflated (%zu) entries", stored,
       deflated);
    is_int(aligned, ts_zip_count(z), "every stored entry's data is 64-byte aligned");
    is_int(read_ok, ts_zip_count(z), "every entry reads with its CRC checked");
    is_int(ts_zip_entry(z, ts_zip_count(z)) == NULL, 1, "an entry past the end is NULL");

    long code = ts_zip_find(z, "module/code/__torch__.py");
    const void *data;
    size_t size;
    void *owned = NULL;
    if (ok(code >= 0 && ts_zip_read(z, (size_t)code, true, &data, &size, &owned, &err) == 0,
           "the deflated code of the module inflates")) {
        char *text = strndup(data, size);
        like(text, "def forward(self", "and is the module's source");
        free(text);
    }
    free(owned);
    ts_zip_release(z);
}

/* Tensor data stays in the file's mapping, outlives the TsZip, and is private. */
static void test_zero_copy(void)
{
    TsError err = TS_ERROR_INIT;
    TsZip *z = open_fixture("module.pt", &err);
    long i = z ? ts_zip_find(z, "module/data/0") : -1;
    if (!ok(i >= 0, "module/data/0 exists"))
        return;
    const void *data;
    size_t size;
    void *owned;
    ts_zip_read(z, (size_t)i, false, &data, &size, &owned, &err);
    TsStorage *s = ts_zip_storage(z, (size_t)i, &err);
    if (!ok(s != NULL, "a storage over a stored entry")) {
        diag("%s", err.msg);
        ts_zip_release(z);
        return;
    }
    ok(s->data == data && s->nbytes == size, "is the entry's bytes, not a copy");
    ok(mapped_from(s->data, "/t/data/serialize/module.pt"),
       "its data pointer lies inside the mapping of module.pt");
    unsigned char *copy = malloc(size);
    memcpy(copy, s->data, size);
    ts_zip_release(z);                 /* the storage keeps the mapping alive */
    ok(memcmp(s->data, copy, size) == 0, "the storage's bytes outlive the zip's handle");
    memset(s->data, 0xab, size);       /* a kernel writing in place */
    TsZip *again = open_fixture("module.pt", &err);
    const void *fresh;
    ts_zip_read(again, (size_t)i, true, &fresh, &size, &owned, &err);
    ok(memcmp(fresh, copy, size) == 0, "writes into the storage never reach the file");
    ts_zip_release(again);
    ts_storage_release(s);
    free(copy);

    z = open_fixture("module.pt", &err);
    long code = ts_zip_find(z, "module/code/__torch__.py");
    s = ts_zip_storage(z, (size_t)code, &err);
    ok(s && !mapped_from(s->data, "module.pt") && (uintptr_t)s->data % 64 == 0,
       "a deflated entry's storage is an aligned copy");
    if (s)
        ts_storage_release(s);
    ts_zip_release(z);
}

static int released;
static void count_release(void *ctx)
{
    released += ctx == &released;
}

static void test_memory(void)
{
    size_t size;
    char path[512];
    snprintf(path, sizeof path, "%s/state_dict.pt", DATA_DIR);
    unsigned char *file = slurp(path, &size);
    /* 64-byte aligned memory: stored entries can be used in place */
    unsigned char *buf = aligned_alloc(64, (size + 64) / 64 * 64 + 64);
    memcpy(buf, file, size);
    TsError err = TS_ERROR_INIT;
    TsZip *z = ts_zip_open_memory("sd", buf, size, count_release, &released, &err);
    if (!ok(z != NULL, "an archive in memory opens"))
        return;
    is_str(ts_zip_filename(z), "sd", "and has the name it was given");
    long i = ts_zip_find(z, "state_dict/data/0");
    TsStorage *s = i >= 0 ? ts_zip_storage(z, (size_t)i, &err) : NULL;
    ts_zip_release(z);
    is_int(released, 0, "a storage over it keeps the memory");
    ok(s && (unsigned char *)s->data >= buf && (unsigned char *)s->data < buf + size,
       "its storages point into the memory");
    if (s)
        ts_storage_release(s);
    is_int(released, 1, "release runs once when the last user is gone");

    /* one byte off: entries are not aligned, so storages are aligned copies */
    memcpy(buf + 1, file, size);
    z = ts_zip_open_memory("sd", buf + 1, size, NULL, NULL, &err);
    s = z ? ts_zip_storage(z, (size_t)i, &err) : NULL;
    ok(s && ((unsigned char *)s->data < buf || (unsigned char *)s->data > buf + size) &&
       (uintptr_t)s->data % 64 == 0, "an unaligned entry's storage is an aligned copy");
    ts_zip_release(z);
    if (s)
        ts_storage_release(s);
    free(buf);
    free(file);
}

/* ---- writing ---------------------------------------------------------------------- */
typedef struct Item {
    const char *name;
    size_t size;
} Item;

static const Item items[] = {
    {"arc/data.pkl", 100}, {"arc/data/0", 0}, {"arc/data/1", 1}, {"arc/data/2", 4096},
    {"arc/code/__torch__/m.py", 333}, {"arc/version", 2}, {"arc/\xc3\xa9t\xc3\xa9", 65},
};
#define NITEMS (sizeof items / sizeof *items)

static void fill(unsigned char *p, size_t n, size_t seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(i * 31 + seed * 7 + (i >> 8));
}

/* Writes items into path; 0 on success. */
static int write_items(const char *path, bool zip64, TsError *err)
{
    TsZipWriter *w = ts_zip_writer_open(path, err);
    if (!w)
        return -1;
    ts_zip_writer_set_zip64(w, zip64);
    unsigned char buf[4096];
    for (size_t i = 0; i < NITEMS; i++) {
        fill(buf, items[i].size, i);
        if (ts_zip_writer_add(w, items[i].name, buf, items[i].size, err)) {
            ts_zip_writer_abort(w);
            return -1;
        }
    }
    return ts_zip_writer_close(w, err);
}

static void check_written(const char *path, const char *what)
{
    TsError err = TS_ERROR_INIT;
    TsZip *z = ts_zip_open_file(path, &err);
    if (!ok(z && ts_zip_count(z) == NITEMS, "%s: reads back with every entry", what)) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return;
    }
    is_str(ts_zip_prefix(z), "arc/", "%s: the shared top folder", what);
    int same = 0, aligned = 0;
    unsigned char want[4096];
    for (size_t i = 0; i < NITEMS; i++) {
        long at = ts_zip_find(z, items[i].name);
        const void *data;
        size_t size;
        void *owned;
        fill(want, items[i].size, i);
        if (at >= 0 && ts_zip_read(z, (size_t)at, true, &data, &size, &owned, &err) == 0)
            same += size == items[i].size && memcmp(data, want, size) == 0;
        ts_error_clear(&err);
        aligned += at >= 0 && ts_zip_entry(z, (size_t)at)->data_offset % 64 == 0;
    }
    is_int(same, NITEMS, "%s: every entry has its bytes and CRC", what);
    is_int(aligned, NITEMS, "%s: every entry's data is 64-byte aligned", what);
    ts_zip_release(z);

    char cmd[1024], *out = NULL;
    if (system("command -v unzip >/dev/null 2>&1") != 0) {
        skip("unzip is not installed", "unzip -t");
    } else {
        snprintf(cmd, sizeof cmd, "unzip -t '%s' 2>&1", path);
        if (!is_int(run(cmd, &out), 0, "%s: unzip -t accepts it", what))
            diag("%s", out);
        free(out);
    }
    const char *py = python_with("zipfile");
    if (!py) {
        skip("no python3", "python's zipfile");
        return;
    }
    snprintf(cmd, sizeof cmd, "%s -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); "
             "assert z.testzip() is None; print(len(z.namelist()))' '%s' 2>&1", py, path);
    out = NULL;
    int rc = run(cmd, &out);
    ok(rc == 0 && out && atoi(out) == (int)NITEMS, "%s: python's zipfile reads it", what);
    if (rc != 0)
        diag("%s", out);
    free(out);
}

static void test_writer(const char *dir)
{
    char path[512];
    TsError err = TS_ERROR_INIT;
    snprintf(path, sizeof path, "%s/plain.zip", dir);
    if (ok(write_items(path, false, &err) == 0, "an archive is written"))
        check_written(path, "plain");
    else
        diag("%s", err.msg);
    ts_error_clear(&err);
    snprintf(path, sizeof path, "%s/zip64.zip", dir);
    if (ok(write_items(path, true, &err) == 0, "an archive with zip64 records is written"))
        check_written(path, "zip64");
    ts_error_clear(&err);

    snprintf(path, sizeof path, "%s/twice.zip", dir);
    TsZipWriter *w = ts_zip_writer_open(path, &err);
    ts_zip_writer_add(w, "a/x", "1", 1, &err);
    ok(ts_zip_writer_add(w, "a/x", "2", 1, &err) != 0, "a name written twice is refused");
    like(err.msg, "entry 'a/x' is written twice", "saying which");
    ts_error_clear(&err);
    ts_zip_writer_abort(w);
    struct stat st;
    ok(stat(path, &st) != 0, "abort removes the unfinished file");

    ok(ts_zip_writer_open("/nonexistent/dir/x.pt", &err) == NULL, "an unwritable path fails");
    like(err.msg, "/nonexistent/dir/x.pt: No such file or directory", "naming the path");
    ts_error_clear(&err);

    /* a full disk: /dev/full takes nothing; the error comes from add or close */
    w = ts_zip_writer_open("/dev/full", &err);
    if (!w) {
        skip("no /dev/full", "a full disk is an error");
        ts_error_clear(&err);
        return;
    }
    static unsigned char big[1 << 16];
    int rc = ts_zip_writer_add(w, "a/data/0", big, sizeof big, &err);
    if (rc)
        ts_zip_writer_abort(w);
    else
        rc = ts_zip_writer_close(w, &err);
    ok(rc != 0, "writing to a full disk is an error");
    like(err.msg, "/dev/full: write error: No space left on device", "saying why");
    ok(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode), "and /dev/full is never removed");
    ts_error_clear(&err);

    w = ts_zip_writer_open("/dev/full", &err);
    ts_zip_writer_add(w, "a/v", "3\n", 2, &err);   /* fits in the stdio buffer */
    ok(ts_zip_writer_close(w, &err) != 0, "a small archive to a full disk fails at close");
    like(err.msg, "No space left on device", "with the reason");
    ts_error_clear(&err);
}

/* Copies every entry of a PyTorch archive through the writer, then asks PyTorch to load
 * the copy and compare it with the original. */
static void test_pytorch_loads(const char *dir)
{
    const char *py = python_with("torch");
    if (!py) {
        skip("python3 with torch is not installed", "torch.load reads what the writer writes");
        skip("python3 with torch is not installed", "torch.jit.load reads it");
        return;
    }
    static const char *const fixtures[] = {"values5", "module"};
    for (int k = 0; k < 2; k++) {
        char src[512], dst[512], cmd[2048];
        TsError err = TS_ERROR_INIT;
        snprintf(src, sizeof src, "%s/%s.pt", DATA_DIR, fixtures[k]);
        snprintf(dst, sizeof dst, "%s/%s.pt", dir, fixtures[k]);
        TsZip *z = ts_zip_open_file(src, &err);
        TsZipWriter *w = ts_zip_writer_open(dst, &err);
        int rc = z && w ? 0 : -1;
        for (size_t i = 0; z && w && i < ts_zip_count(z) && !rc; i++) {
            const void *data;
            size_t size;
            void *owned;
            rc = ts_zip_read(z, i, true, &data, &size, &owned, &err);
            if (!rc)
                rc = ts_zip_writer_add(w, ts_zip_entry(z, i)->name, data, size, &err);
            free(owned);
        }
        rc = w ? (rc ? (ts_zip_writer_abort(w), rc) : ts_zip_writer_close(w, &err)) : -1;
        ts_zip_release(z);
        if (!ok(rc == 0, "%s copied through the writer", fixtures[k]))
            diag("%s", err.msg);
        ts_error_clear(&err);
        if (k == 0)
            snprintf(cmd, sizeof cmd,
                     "%s -c 'import sys, torch\n"
                     "a, b = torch.load(sys.argv[1]), torch.load(sys.argv[2])\n"
                     "assert a.keys() == b.keys()\n"
                     "for k in a:\n"
                     "    x, y = a[k], b[k]\n"
                     "    assert type(x) == type(y), k\n"
                     "    assert (torch.equal(x, y) if isinstance(x, torch.Tensor) else x == y), k\n"
                     "' '%s' '%s' 2>&1", py, src, dst);
        else
            snprintf(cmd, sizeof cmd,
                     "%s -c 'import sys, torch\n"
                     "a, b = torch.jit.load(sys.argv[1]), torch.jit.load(sys.argv[2])\n"
                     "x = torch.ones(4, 3)\n"
                     "assert torch.equal(a(x), b(x))\n"
                     "assert a.ints == b.ints and a.text == b.text\n"
                     "' '%s' '%s' 2>&1", py, src, dst);
        char *out = NULL;
        if (!is_int(run(cmd, &out), 0, "%s",
                    k == 0 ? "torch.load reads what the writer writes, equal to the original"
                           : "torch.jit.load reads it and runs the module"))
            diag("%s", out);
        free(out);
    }
}

/* ---- hostile archives -------------------------------------------------------------- */
/* A small archive written by the writer, in memory. */
static unsigned char *small_archive(const char *dir, size_t *size)
{
    char path[512];
    TsError err = TS_ERROR_INIT;
    snprintf(path, sizeof path, "%s/small.zip", dir);
    if (write_items(path, false, &err) != 0) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return NULL;
    }
    return slurp(path, size);
}

/* The offset of the central record of name in an archive (-1 if none). */
static long central_of(const unsigned char *b, size_t size, const char *name)
{
    size_t nl = strlen(name);
    for (size_t i = 0; i + ZIP_CENTRAL_SIZE + nl <= size; i++)
        if (zip_rd32(b + i) == ZIP_CENTRAL_SIG && zip_rd16(b + i + 28) == nl &&
            memcmp(b + i + ZIP_CENTRAL_SIZE, name, nl) == 0)
            return (long)i;
    return -1;
}

static long local_of(const unsigned char *b, size_t size, const char *name)
{
    long c = central_of(b, size, name);
    return c < 0 ? -1 : (long)zip_rd32(b + c + 42);
}

static long eocd_of(const unsigned char *b, size_t size)
{
    return zip_rd32(b + size - ZIP_EOCD_SIZE) == ZIP_EOCD_SIG ? (long)(size - ZIP_EOCD_SIZE) : -1;
}

/* Opens a copy of the archive after patch(copy) and expects an error containing want. */
static void refused(const unsigned char *orig, size_t size, void (*patch)(unsigned char *, size_t),
                    const char *want, const char *what)
{
    unsigned char *b = malloc(size);
    memcpy(b, orig, size);
    patch(b, size);
    TsError err = TS_ERROR_INIT;
    TsZip *z = ts_zip_open_memory("hostile.zip", b, size, NULL, NULL, &err);
    if (!ok(z == NULL, "%s: refused", what))
        ts_zip_release(z);
    like(err.msg, want, "%s: says so", what);
    ts_error_clear(&err);
    free(b);
}

static void set_sizes(unsigned char *b, size_t size, const char *name, uint32_t csize,
                      uint32_t usize)
{
    long c = central_of(b, size, name), l = local_of(b, size, name);
    zip_wr32(b + c + 20, csize);
    zip_wr32(b + c + 24, usize);
    zip_wr32(b + l + 18, csize);
    zip_wr32(b + l + 22, usize);
}

static void claim_4gb(unsigned char *b, size_t n) { set_sizes(b, n, "arc/data/1", 0xfffffff0u, 0xfffffff0u); }
static void overlap(unsigned char *b, size_t n) { set_sizes(b, n, "arc/data.pkl", 200, 200); }
static void lie_local(unsigned char *b, size_t n) { zip_wr32(b + local_of(b, n, "arc/data/2") + 22, 4095); }
static void lie_crc(unsigned char *b, size_t n) { b[local_of(b, n, "arc/data/2") + 14] ^= 1; }
static void into_cd(unsigned char *b, size_t n) { set_sizes(b, n, "arc/version", 400, 400); }
static void nul_name(unsigned char *b, size_t n) { b[central_of(b, n, "arc/data/1") + ZIP_CENTRAL_SIZE + 3] = 0; }
static void encrypted(unsigned char *b, size_t n) { b[central_of(b, n, "arc/data/1") + 8] |= 1; }
static void bzip2(unsigned char *b, size_t n)
{
    zip_wr16(b + central_of(b, n, "arc/data/1") + 10, 12);
    zip_wr16(b + local_of(b, n, "arc/data/1") + 8, 12);
}
static void other_name(unsigned char *b, size_t n) { b[local_of(b, n, "arc/data/1") + 30 + 9] = '7'; }
static void same_name(unsigned char *b, size_t n)
{
    long c = central_of(b, n, "arc/data/1"), l = local_of(b, n, "arc/data/1");
    b[c + ZIP_CENTRAL_SIZE + 9] = '0';
    b[l + 30 + 9] = '0';
}
static void cd_outside(unsigned char *b, size_t n) { zip_wr32(b + eocd_of(b, n) + 16, 0x7fffffff); }
static void many_entries(unsigned char *b, size_t n)
{
    zip_wr16(b + eocd_of(b, n) + 8, 60000);
    zip_wr16(b + eocd_of(b, n) + 10, 60000);
}
static void bad_local_offset(unsigned char *b, size_t n) { zip_wr32(b + central_of(b, n, "arc/data/2") + 42, 3); }
static void no_eocd(unsigned char *b, size_t n) { b[eocd_of(b, n)] = 'Q'; }
static void stored_mismatch(unsigned char *b, size_t n) { set_sizes(b, n, "arc/data/2", 4096, 4000); }
static void multi_disk(unsigned char *b, size_t n) { zip_wr16(b + eocd_of(b, n) + 4, 1); }
static void deflate_4gb(unsigned char *b, size_t n)
{
    set_sizes(b, n, "arc/data/2", 4096, 0xfffffff0u);
    zip_wr16(b + central_of(b, n, "arc/data/2") + 10, TS_ZIP_DEFLATED);
    zip_wr16(b + local_of(b, n, "arc/data/2") + 8, TS_ZIP_DEFLATED);
}
static void fake_zip64(unsigned char *b, size_t n) { zip_wr32(b + eocd_of(b, n) + 16, 0xffffffffu); }

static void test_hostile(const char *dir)
{
    size_t size;
    unsigned char *b = small_archive(dir, &size);
    if (!ok(b != NULL, "a small archive to damage"))
        return;
    static const struct {
        void (*patch)(unsigned char *, size_t);
        const char *want, *what;
    } cases[] = {
        {claim_4gb, "entry 'arc/data/1' lies past the end of the file",
         "a 4 GB size claimed in a small file"},
        {deflate_4gb, "entry 'arc/data/2' claims 4294967280 bytes from 4096",
         "a deflated entry claiming 4 GB from 4 KB (refused before allocating)"},
        {overlap, "entries 'arc/data.pkl' and 'arc/data/0' overlap",
         "an entry whose data runs into the next"},
        {lie_local, "entry 'arc/data/2': its local header disagrees",
         "a local header whose size differs from the central record's"},
        {lie_crc, "disagrees with the central directory (sizes or CRC)",
         "a local header whose CRC differs"},
        {into_cd, "entry 'arc/version' overlaps the central directory",
         "an entry whose data runs into the central directory"},
        {nul_name, "has a NUL byte in its name",
         "a NUL byte in a name"},
        {encrypted, "entry 'arc/data/1' is encrypted",
         "an encrypted entry"},
        {bzip2, "entry 'arc/data/1' uses compression method 12",
         "a compression method other than stored and deflate"},
        {other_name, "its local header names another entry",
         "a local header with another name"},
        {same_name, "entry 'arc/data/0' appears twice",
         "two entries of one name"},
        {cd_outside, "the central directory lies outside the file",
         "a central directory past the end"},
        {many_entries, "claims 60000 entries",
         "more entries than the directory holds"},
        {bad_local_offset, "entry 'arc/data/2' has no local header at offset 3",
         "a central record pointing at no local header"},
        {no_eocd, "hostile.zip: not a zip archive (no end of central directory record)",
         "no end of central directory record"},
        {stored_mismatch, "entry 'arc/data/2' is stored but claims 4000 bytes in 4096",
         "a stored entry whose two sizes differ"},
        {multi_disk, "multi-disk zip archives are not supported",
         "a multi-disk archive"},
        {fake_zip64, "needs a zip64 record, and there is none",
         "a zip64 marker without its record"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        refused(b, size, cases[i].patch, cases[i].want, cases[i].what);

    /* truncated at every length: an error every time, never a crash */
    int errors = 0;
    for (size_t n = 0; n < size; n++) {
        TsError err = TS_ERROR_INIT;
        TsZip *z = ts_zip_open_memory("cut", b, n, NULL, NULL, &err);
        errors += z == NULL && err.msg != NULL;
        ts_zip_release(z);
        ts_error_clear(&err);
    }
    is_int(errors, size, "the archive cut at each of its %zu lengths is refused", size);
    free(b);
}

/* Every byte of a real archive flipped in turn: each either opens and reads (CRCs checked)
 * or fails with a message; none crashes or reads outside the buffer (ASan, valgrind). */
static void test_flipped(void)
{
    size_t size;
    char path[512];
    snprintf(path, sizeof path, "%s/module.pt", DATA_DIR);
    unsigned char *orig = slurp(path, &size), *b = malloc(size);
    int opened = 0, failed = 0, silent = 0;
    for (size_t at = 0; orig && b && at < size; at++) {
        memcpy(b, orig, size);
        b[at] ^= 0x5a;
        TsError err = TS_ERROR_INIT;
        TsZip *z = ts_zip_open_memory("flipped", b, size, NULL, NULL, &err);
        if (!z) {
            failed++;
            silent += err.msg == NULL;
        }
        for (size_t i = 0; z && i < ts_zip_count(z); i++) {
            const void *data;
            size_t n;
            void *owned;
            if (ts_zip_read(z, i, true, &data, &n, &owned, &err))
                silent += err.msg == NULL;
            free(owned);
            ts_error_clear(&err);
        }
        opened += z != NULL;
        ts_zip_release(z);
        ts_error_clear(&err);
    }
    ok(opened > 0 && failed > 0, "module.pt with one byte flipped: %d open, %d refused", opened,
       failed);
    is_int(silent, 0, "every failure has a message");
    free(orig);
    free(b);
}

static void test_not_archives(const char *dir)
{
    TsError err = TS_ERROR_INIT;
    ok(ts_zip_open_file(dir, &err) == NULL, "a directory is refused");
    like(err.msg, "not a regular file", "as not a regular file");
    ts_error_clear(&err);
    ok(ts_zip_open_file("/nonexistent.pt", &err) == NULL, "a missing file is refused");
    like(err.msg, "/nonexistent.pt: No such file or directory", "with the reason");
    ts_error_clear(&err);
    char path[512];
    snprintf(path, sizeof path, "%s/empty.pt", dir);
    spit(path, "", 0);
    ok(ts_zip_open_file(path, &err) == NULL, "an empty file is refused");
    like(err.msg, "empty.pt: not a zip archive (no end of central directory record)",
         "as not a zip archive");
    ts_error_clear(&err);
    /* a one-entry archive of a few hundred bytes whose entry claims 4 GB */
    snprintf(path, sizeof path, "%s/tiny.zip", dir);
    TsZipWriter *w = ts_zip_writer_open(path, &err);
    ts_zip_writer_add(w, "a/x", "0123456789abcdef", 16, &err);
    ts_zip_writer_close(w, &err);
    size_t size;
    unsigned char *tiny = slurp(path, &size);
    set_sizes(tiny, size, "a/x", 0xfffffff0u, 0xfffffff0u);
    ok(size < 1024 && ts_zip_open_memory("tiny", tiny, size, NULL, NULL, &err) == NULL,
       "a stored entry claiming 4 GB in a %zu-byte file is refused at open", size);
    like(err.msg, "tiny: entry 'a/x' lies past the end of the file", "saying so");
    ts_error_clear(&err);
    free(tiny);
    static unsigned char kb[1024];
    memset(kb, 'P', sizeof kb);
    ok(ts_zip_open_memory("junk", kb, sizeof kb, NULL, NULL, &err) == NULL, "1 KB of junk too");
    ts_error_clear(&err);
}

int main(void)
{
    const char *dir = make_tmpdir();
    if (!dir) {
        printf("1..0 # SKIP cannot make a temporary directory\n");
        return 0;
    }
    test_pytorch_archive();
    test_zero_copy();
    test_memory();
    test_writer(dir);
    test_pytorch_loads(dir);
    test_hostile(dir);
    test_flipped();
    test_not_archives(dir);
    cleanup_tmpdir();
    return done_testing();
}
