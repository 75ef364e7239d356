/* pt_fuzz.c — libFuzzer target for the whole .pt loader: an archive's entries, as the
 * input gives them, are written into a real zip (so mutations reach the pickles and the
 * code instead of dying on a CRC), loaded with ts_module_load, and every method of the root
 * module compiled. Nothing runs: a model's code may loop, and running is not loading.
 *
 * Input: entries one after another, each "NAME\n" then a 4-byte little-endian length and
 * that many bytes ("version", "data.pkl", "constants.pkl", "code/__torch__/m.py", "data/0",
 * ...); the names get the archive's top folder "m/". t/fuzz/build.sh turns the archives
 * under t/data/serialize and the conformance suite into seeds of this form.
 *
 * Any outcome but a crash, a leak or a sanitizer report is fine: loading must either give
 * a module or an error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "module.h"
#include "serialize/zip.h"

static TsRuntime *rt;
static char path[64];

static int write_archive(const uint8_t *data, size_t size)
{
    TsError err = TS_ERROR_INIT;
    TsZipWriter *w = ts_zip_writer_open(path, &err);
    if (!w) {
        ts_error_clear(&err);
        return -1;
    }
    size_t pos = 0;
    int rc = 0;
    while (rc == 0 && pos < size) {
        const uint8_t *nl = memchr(data + pos, '\n', size - pos);
        if (!nl || (size_t)(nl - data) + 5 > size)
            break;
        size_t name_len = (size_t)(nl - (data + pos));
        uint32_t len;
        memcpy(&len, nl + 1, 4);
        size_t at = (size_t)(nl - data) + 5;
        if (len > size - at || name_len == 0 || name_len > 200)
            break;
        char name[256];
        snprintf(name, sizeof name, "m/%.*s", (int)name_len, (const char *)data + pos);
        if (strlen(name) != name_len + 2)
            break;   /* a NUL in the name */
        rc = ts_zip_writer_add(w, name, data + at, len, &err);
        pos = at + len;
    }
    if (rc == 0)
        rc = ts_zip_writer_close(w, &err);
    else
        ts_zip_writer_abort(w);
    ts_error_clear(&err);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    TsError err = TS_ERROR_INIT;
    if (!rt) {
        snprintf(path, sizeof path, "/tmp/pt_fuzz.%d.pt", (int)getpid());
        if (!(rt = ts_runtime_open(NULL, &err))) {
            fprintf(stderr, "pt_fuzz: %s\n", err.msg ? err.msg : "no runtime");
            abort();
        }
    }
    if (write_archive(data, size) != 0)
        return 0;
    TsModule *m = ts_module_load(rt, path, &err);
    ts_error_clear(&err);
    if (m) {
        const char *names[64];
        size_t n = ts_module_method_names(m, names, 64);
        for (size_t i = 0; i < n && i < 64; i++) {
            ts_module_method(m, names[i], &err);
            ts_error_clear(&err);
        }
        ts_module_free(m);
    }
    return 0;
}
