/* tensorfile.c — values in torch.save archives and .npy files (see tensorfile.h).
 *
 * A torch.save archive (PyTorch 1.6 and later) is a zip like a TorchScript one, without
 * code: TOP/data.pkl pickles the value, TOP/data/KEY hold its storages, TOP/version is 3.
 * Reading it is the unpickler with no classes at all (a state dict, a tensor, containers);
 * writing it pickles the value and stores each storage it met once. The legacy format
 * (a bare pickle, before 1.6) is refused with the way out.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serialize/npy.h"
#include "frontend/source.h"
#include "serialize/pickle.h"
#include "serialize/tensorfile.h"
#include "serialize/zip.h"

/* ---- reading ----------------------------------------------------------------------- */

typedef struct Reader {
    TsZip *zip;
    const char *prefix;
} Reader;

static TsStorage *reader_storage(void *ctx, int dtype, const char *key, const char *location,
                                 int64_t numel, TsError *err)
{
    Reader *r = ctx;
    (void)location;   /* every storage comes to the CPU */
    char name[1024];
    if ((size_t)snprintf(name, sizeof name, "%sdata/%s", r->prefix, key) >= sizeof name) {
        ts_error_set(err, TS_ERR_VALUE, "storage key too long");
        return NULL;
    }
    long i = ts_zip_find(r->zip, name);
    size_t es = ts_dtype_size(dtype);
    if (i < 0 || es == 0) {
        ts_error_set(err, TS_ERR_VALUE, "the pickle refers to storage '%s', which the file "
                     "does not have", name);
        return NULL;
    }
    uint64_t size = ts_zip_entry(r->zip, (size_t)i)->size;
    if (numel < 0 || (uint64_t)numel > size / es) {
        ts_error_set(err, TS_ERR_VALUE, "storage '%s' claims %lld elements of %zu bytes but "
                     "holds %llu bytes", name, (long long)numel, es, (unsigned long long)size);
        return NULL;
    }
    TsStorage *s = ts_zip_storage(r->zip, (size_t)i, err);
    if (s)
        s->nbytes = (size_t)numel * es;
    return s;
}

static int load_zip(const char *path, TsValue *out, TsError *err)
{
    TsZip *z = ts_zip_open_file(path, err);
    if (!z)
        return -1;
    Reader r = { z, ts_zip_prefix(z) };
    char name[1024];
    snprintf(name, sizeof name, "%sdata.pkl", r.prefix);
    long i = ts_zip_find(z, name);
    int rc;
    if (i < 0) {
        rc = ts_error_set(err, TS_ERR_VALUE, "%s: not a torch.save file (it has no data.pkl)",
                          path);
    } else {
        const void *data;
        void *owned;
        size_t size;
        rc = ts_zip_read(z, (size_t)i, true, &data, &size, &owned, err);
        if (rc == 0) {
            TsUnpickleEnv env = { .ctx = &r, .load_storage = reader_storage };
            rc = ts_unpickle(data, size, &env, out, err);
            free(owned);
        }
    }
    ts_zip_release(z);
    return rc;
}

int ts_tensorfile_load(const char *path, TsValue *out, TsError *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return ts_error_set(err, TS_ERR_IO, "%s: %s", path, strerror(errno));
    unsigned char magic[6] = { 0 };
    size_t n = fread(magic, 1, sizeof magic, f);
    fclose(f);
    if (n >= 4 && memcmp(magic, "PK\x03\x04", 4) == 0)
        return load_zip(path, out, err);
    if (n == 6 && memcmp(magic, "\x93NUMPY", 6) == 0) {
        size_t size;
        char *data = ts_read_file(path, (size_t)-1 / 2, &size, err);
        if (!data)
            return -1;
        TsTensor *t = ts_npy_read(path, data, size, err);
        free(data);
        if (!t)
            return -1;
        *out = ts_obj_value(t, TS_TAG_TENSOR);
        return 0;
    }
    if (n >= 2 && magic[0] == 0x80)
        return ts_error_set(err, TS_ERR_VALUE, "%s: a torch.save file in the legacy format "
                            "(before PyTorch 1.6), which tscript does not read; save it again "
                            "with torch.save(value, path)", path);
    return ts_error_set(err, TS_ERR_VALUE, "%s: neither a torch.save file nor a NumPy .npy "
                        "file", path);
}

/* ---- writing ----------------------------------------------------------------------- */

typedef struct Writer {
    TsStorage **storages;      /* in key order: data/0, data/1, ... */
    size_t n, cap;
} Writer;

static int writer_key(void *ctx, TsStorage *s, TsBuf *key, TsError *err)
{
    Writer *w = ctx;
    size_t k = 0;
    while (k < w->n && w->storages[k] != s)
        k++;
    if (s->device.type != TS_DEV_CPU)
        return ts_error_set(err, TS_ERR_VALUE, "only CPU tensors can be saved");
    if (k == w->n) {
        if (w->n == w->cap) {
            size_t nc = w->cap ? 2 * w->cap : 8;
            TsStorage **p = realloc(w->storages, nc * sizeof *p);
            if (!p)
                return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
            w->storages = p;
            w->cap = nc;
        }
        ts_storage_retain(s);
        w->storages[w->n++] = s;
    }
    ts_buf_printf(key, "%zu", k);
    return 0;
}

/* The stem of path, an archive's top folder as torch.save names it ("out" for dir/out.pt). */
static void stem(const char *path, char *buf, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), base);
    if (!buf[0])
        snprintf(buf, size, "archive");
}

static int save_zip(const char *path, TsValue v, TsError *err)
{
    Writer w = { 0 };
    TsPickleEnv env = { .ctx = &w, .storage_key = writer_key };
    TsBuf pkl = TS_BUF_INIT;
    int rc = ts_pickle(v, &env, &pkl, err);
    if (rc == 0)
        rc = ts_buf_check(&pkl, err);
    TsZipWriter *zw = rc == 0 ? ts_zip_writer_open(path, err) : NULL;
    if (rc == 0 && !zw)
        rc = -1;
    char top[256], name[512];
    stem(path, top, sizeof top);
    if (rc == 0) {
        snprintf(name, sizeof name, "%s/data.pkl", top);
        rc = ts_zip_writer_add(zw, name, pkl.p ? pkl.p : "", pkl.len, err);
    }
    for (size_t k = 0; rc == 0 && k < w.n; k++) {
        snprintf(name, sizeof name, "%s/data/%zu", top, k);
        rc = ts_zip_writer_add(zw, name, w.storages[k]->data, w.storages[k]->nbytes, err);
    }
    if (rc == 0) {
        snprintf(name, sizeof name, "%s/version", top);
        rc = ts_zip_writer_add(zw, name, "3\n", 2, err);
    }
    if (zw && rc == 0)
        rc = ts_zip_writer_close(zw, err);
    else if (zw)
        ts_zip_writer_abort(zw);
    for (size_t k = 0; k < w.n; k++)
        ts_storage_release(w.storages[k]);
    free(w.storages);
    ts_buf_free(&pkl);
    return rc;
}

static int save_npy(const char *path, TsValue v, TsError *err)
{
    if (v.tag != TS_TAG_TENSOR)
        return ts_error_set(err, TS_ERR_VALUE, "a .npy file holds a tensor, and the result is "
                            "not one (write a .pt file instead)");
    TsBuf b = TS_BUF_INIT;
    int rc = ts_npy_write((const TsTensor *)v.u.p, &b, err);
    if (rc == 0)
        rc = ts_buf_check(&b, err);
    if (rc == 0) {
        FILE *f = fopen(path, "wb");
        if (!f) {
            rc = ts_error_set(err, TS_ERR_IO, "%s", strerror(errno));
        } else {
            bool ok = fwrite(b.p, 1, b.len, f) == b.len;
            ok = (fclose(f) == 0) && ok;
            if (!ok) {
                rc = ts_error_set(err, TS_ERR_IO, "write error: %s", strerror(errno));
                remove(path);
            }
        }
    }
    ts_buf_free(&b);
    return rc;
}

int ts_tensorfile_save(const char *path, TsValue v, TsError *err)
{
    size_t n = strlen(path);
    if (n > 4 && strcmp(path + n - 4, ".npy") == 0)
        return save_npy(path, v, err);
    return save_zip(path, v, err);
}
