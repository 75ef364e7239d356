/* zip_write.c — writing archives as PyTorch's PyTorchStreamWriter does: stored entries,
 * each one's data on a 64-byte boundary, CRC-32s, zip64 records where sizes need them.
 *
 * The layout follows PyTorch's writer (caffe2/serialize/inline_container.cc) where it
 * matters to readers: entries are stored, and a padding extra field ("FB", filled with 'Z')
 * in each local header puts the data at a multiple of 64 bytes, so a reader can map the
 * file and point tensors into it. Unlike PyTorch's writer, which streams and puts sizes in
 * a data descriptor after the data, ts_zip_writer_add has the whole entry at hand and
 * writes sizes and CRC in the local header itself. Entries of 4 GB or more get zip64 sizes,
 * and the directory zip64 records when its offset, size or count overflow the 32/16-bit
 * fields. Every write is checked: a full disk is an error from add or close, never a short
 * file reported as success. Names of regular files only are ever removed (abort, a failed
 * close), never a device like /dev/full.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "serialize/zip.h"
#include "serialize/zip_format.h"
#include "tscript/value.h"

typedef struct WrEntry {
    char *name;
    uint64_t offset;           /* of its local header */
    uint64_t size;
    uint32_t crc32;
} WrEntry;

struct TsZipWriter {
    char *path;
    FILE *f;
    bool regular;              /* path is a regular file we may remove on failure */
    bool zip64_always;
    bool failed;               /* a write failed: the file is garbage, only abort/close remain */
    uint64_t pos;              /* bytes written so far */
    WrEntry *entries;
    size_t n, cap;
    TsDict *names;             /* the names written, to refuse a second entry of one name */
};

/* 1980-01-01 00:00 in MS-DOS form: a fixed date, so the same archive is the same bytes. */
enum { DOS_DATE = (0 << 9) | (1 << 5) | 1, DOS_TIME = 0 };
/* Made by / needed: 2.0, or 4.5 for zip64; "made by" says Unix so unzip keeps the mode. */
enum { ZIP_VERSION = 20, ZIP64_VERSION = 45, MADE_BY_UNIX = 3 << 8 };

/* The fields a local header and a central record share, from "version needed" to the
 * extra fields' length: stored, UTF-8 names, the fixed date, size32 as both sizes. */
static uint8_t *put_fields(uint8_t *p, bool zip64, uint32_t crc, uint32_t size32, size_t nl,
                           size_t el)
{
    p = zip_wr16(p, zip64 ? ZIP64_VERSION : ZIP_VERSION);
    p = zip_wr16(p, ZIP_FLAG_UTF8);
    p = zip_wr16(p, TS_ZIP_STORED);
    p = zip_wr16(p, DOS_TIME);
    p = zip_wr16(p, DOS_DATE);
    p = zip_wr32(p, crc);
    p = zip_wr32(p, size32);
    p = zip_wr32(p, size32);
    p = zip_wr16(p, (uint16_t)nl);
    return zip_wr16(p, (uint16_t)el);
}

static int write_error(TsZipWriter *w, TsError *err)
{
    return ts_error_set(err, TS_ERR_IO, "%s: write error: %s", w->path,
                        errno ? strerror(errno) : "short write");
}

static int put(TsZipWriter *w, const void *data, size_t n, TsError *err)
{
    errno = 0;
    if (n && fwrite(data, 1, n, w->f) != n) {
        w->failed = true;
        return write_error(w, err);
    }
    w->pos += n;
    return 0;
}

TsZipWriter *ts_zip_writer_open(const char *path, TsError *err)
{
    TsZipWriter *w = calloc(1, sizeof *w);
    if (!w || !(w->path = strdup(path)) ||
        !(w->names = ts_dict_new(ts_type_str(), ts_type_none(), err))) {
        if (w)
            free(w->path);
        free(w);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory opening %s", path);
        return NULL;
    }
    w->f = fopen(path, "wbe");
    struct stat st;
    if (!w->f || fstat(fileno(w->f), &st) != 0) {
        ts_error_set(err, TS_ERR_IO, "%s: %s", path, strerror(errno));
        if (w->f)
            fclose(w->f);
        ts_value_release(ts_obj_value(w->names, TS_TAG_DICT));
        free(w->path);
        free(w);
        return NULL;
    }
    w->regular = S_ISREG(st.st_mode);
    return w;
}

void ts_zip_writer_set_zip64(TsZipWriter *w, bool always)
{
    w->zip64_always = always;
}

/* Remembers name (refusing a second entry of it) and makes room for one more entry. */
static int add_name(TsZipWriter *w, const char *name, size_t nl, TsError *err)
{
    char q[ZIP_QUOTE_BUF];
    if (nl == 0 || nl > ZIP_MAX16)
        return ts_error_set(err, TS_ERR_VALUE, "%s: an entry name must have 1 to 65535 bytes",
                            w->path);
    TsStr *s = ts_str_new(name, nl, err);
    if (!s)
        return TS_ERR_NOMEM;
    TsValue key = ts_str_value(s), had;
    if (ts_dict_get(w->names, key, &had)) {
        ts_value_release(key);
        return ts_error_set(err, TS_ERR_VALUE, "%s: entry '%s' is written twice", w->path,
                            ts_zip_quote_name(name, nl, q, sizeof q));
    }
    int rc = ts_dict_set(w->names, key, ts_none(), err);
    if (rc)
        return rc;
    if (w->n == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 16;
        WrEntry *e = cap < SIZE_MAX / sizeof *e ? realloc(w->entries, cap * sizeof *e) : NULL;
        if (!e)
            return ts_error_set(err, TS_ERR_NOMEM, "%s: out of memory", w->path);
        w->entries = e;
        w->cap = cap;
    }
    if (!(w->entries[w->n].name = strdup(name)))
        return ts_error_set(err, TS_ERR_NOMEM, "%s: out of memory", w->path);
    return 0;
}

int ts_zip_writer_add(TsZipWriter *w, const char *name, const void *data, size_t size,
                      TsError *err)
{
    size_t nl = strlen(name);
    if (w->failed)
        return ts_error_set(err, TS_ERR_IO, "%s: an earlier write failed", w->path);
    int rc = add_name(w, name, nl, err);
    if (rc)
        return rc;
    WrEntry *e = &w->entries[w->n++];
    e->offset = w->pos;
    e->size = size;
    e->crc32 = (uint32_t)crc32_z(0, data, size);
    bool zip64 = w->zip64_always || (uint64_t)size >= ZIP_MAX32;
    size_t z64len = zip64 ? 20 : 0;
    uint64_t unpadded = w->pos + ZIP_LOCAL_SIZE + nl + z64len + 4;
    size_t pad = (size_t)((ZIP_ALIGN - unpadded % ZIP_ALIGN) % ZIP_ALIGN);

    uint8_t h[ZIP_LOCAL_SIZE], x[20 + 4 + ZIP_ALIGN], *p;
    put_fields(zip_wr32(h, ZIP_LOCAL_SIG), zip64, e->crc32, zip64 ? ZIP_MAX32 : (uint32_t)size,
               nl, z64len + 4 + pad);
    p = x;
    if (zip64) {
        p = zip_wr16(p, ZIP_EXTRA_ZIP64);
        p = zip_wr16(p, 16);
        p = zip_wr64(p, size);
        p = zip_wr64(p, size);
    }
    p = zip_wr16(p, ZIP_EXTRA_PAD);
    p = zip_wr16(p, (uint16_t)pad);
    memset(p, 'Z', pad);
    if (!(rc = put(w, h, sizeof h, err)) && !(rc = put(w, name, nl, err)) &&
        !(rc = put(w, x, z64len + 4 + pad, err)))
        rc = put(w, data, size, err);
    return rc;
}

/* One central directory record. */
static int put_central(TsZipWriter *w, const WrEntry *e, TsError *err)
{
    bool big = w->zip64_always || e->size >= ZIP_MAX32;
    bool far = w->zip64_always || e->offset >= ZIP_MAX32;
    size_t nl = strlen(e->name), el = big || far ? 4 + 8 * (2 * big + far) : 0;
    uint8_t h[ZIP_CENTRAL_SIZE], x[4 + 24], *p = h;
    p = zip_wr32(p, ZIP_CENTRAL_SIG);
    p = zip_wr16(p, MADE_BY_UNIX | (el ? ZIP64_VERSION : ZIP_VERSION));
    p = put_fields(p, el != 0, e->crc32, big ? ZIP_MAX32 : (uint32_t)e->size, nl, el);
    p = zip_wr16(p, 0);                        /* comment */
    p = zip_wr16(p, 0);                        /* disk */
    p = zip_wr16(p, 0);                        /* internal attributes */
    p = zip_wr32(p, 0100644u << 16);           /* a regular file, rw-r--r-- */
    zip_wr32(p, far ? ZIP_MAX32 : (uint32_t)e->offset);
    p = x;
    if (el) {
        p = zip_wr16(p, ZIP_EXTRA_ZIP64);
        p = zip_wr16(p, (uint16_t)(el - 4));
        if (big) {
            p = zip_wr64(p, e->size);
            p = zip_wr64(p, e->size);
        }
        if (far)
            zip_wr64(p, e->offset);
    }
    int rc = put(w, h, sizeof h, err);
    if (!rc && !(rc = put(w, e->name, nl, err)))
        rc = put(w, x, el, err);
    return rc;
}

/* The end records: zip64 ones where a field overflows (or always, if asked), then EOCD. */
static int put_end(TsZipWriter *w, uint64_t cd_offset, TsError *err)
{
    uint64_t cd_size = w->pos - cd_offset, z64_at = w->pos;
    bool zip64 = w->zip64_always || w->n >= ZIP_MAX16 || cd_offset >= ZIP_MAX32 ||
                 cd_size >= ZIP_MAX32;
    if (zip64) {
        uint8_t r[ZIP64_EOCD_SIZE + ZIP64_LOCATOR_SIZE], *p = r;
        p = zip_wr32(p, ZIP64_EOCD_SIG);
        p = zip_wr64(p, ZIP64_EOCD_SIZE - 12);
        p = zip_wr16(p, MADE_BY_UNIX | ZIP64_VERSION);
        p = zip_wr16(p, ZIP64_VERSION);
        p = zip_wr32(p, 0);
        p = zip_wr32(p, 0);
        p = zip_wr64(p, w->n);
        p = zip_wr64(p, w->n);
        p = zip_wr64(p, cd_size);
        p = zip_wr64(p, cd_offset);
        p = zip_wr32(p, ZIP64_LOCATOR_SIG);
        p = zip_wr32(p, 0);
        p = zip_wr64(p, z64_at);
        zip_wr32(p, 1);
        int rc = put(w, r, sizeof r, err);
        if (rc)
            return rc;
    }
    uint8_t e[ZIP_EOCD_SIZE], *p = e;
    uint16_t n16 = w->n >= ZIP_MAX16 ? ZIP_MAX16 : (uint16_t)w->n;
    p = zip_wr32(p, ZIP_EOCD_SIG);
    p = zip_wr16(p, 0);
    p = zip_wr16(p, 0);
    p = zip_wr16(p, n16);
    p = zip_wr16(p, n16);
    p = zip_wr32(p, cd_size >= ZIP_MAX32 ? ZIP_MAX32 : (uint32_t)cd_size);
    p = zip_wr32(p, cd_offset >= ZIP_MAX32 ? ZIP_MAX32 : (uint32_t)cd_offset);
    zip_wr16(p, 0);
    return put(w, e, sizeof e, err);
}

static void writer_free(TsZipWriter *w)
{
    for (size_t i = 0; i < w->n; i++)
        free(w->entries[i].name);
    free(w->entries);
    ts_value_release(ts_obj_value(w->names, TS_TAG_DICT));
    free(w->path);
    free(w);
}

int ts_zip_writer_close(TsZipWriter *w, TsError *err)
{
    uint64_t cd_offset = w->pos;
    int rc = w->failed ? ts_error_set(err, TS_ERR_IO, "%s: an earlier write failed", w->path) : 0;
    for (size_t i = 0; i < w->n && !rc; i++)
        rc = put_central(w, &w->entries[i], err);
    if (!rc)
        rc = put_end(w, cd_offset, err);
    errno = 0;
    if (!rc && fflush(w->f) != 0)
        rc = write_error(w, err);
    if (fclose(w->f) != 0 && !rc)
        rc = write_error(w, err);
    if (rc && w->regular)
        unlink(w->path);       /* no half-written archive left behind */
    writer_free(w);
    return rc;
}

void ts_zip_writer_abort(TsZipWriter *w)
{
    if (!w)
        return;
    fclose(w->f);
    if (w->regular)
        unlink(w->path);
    writer_free(w);
}
