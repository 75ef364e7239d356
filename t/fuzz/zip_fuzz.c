/* t/fuzz/zip_fuzz.c — libFuzzer target for the zip reader (core/serialize/zip_read.c).
 *
 * Any input opened as an in-memory archive must give a directory or an error, never a
 * crash, leak, sanitizer report or read outside the input; for a directory, every entry is
 * found by its name, read with its CRC checked (inflating deflated ones) and made into a
 * storage. Built by t/fuzz/build.sh; seeds: the archives in t/data/serialize.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "serialize/zip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    TsError err = TS_ERROR_INIT;
    TsZip *z = ts_zip_open_memory("fuzz.zip", data, size, NULL, NULL, &err);
    ts_error_clear(&err);
    if (!z)
        return 0;
    ts_zip_prefix(z);
    for (size_t i = 0; i < ts_zip_count(z); i++) {
        const TsZipEntry *e = ts_zip_entry(z, i);
        if (ts_zip_find(z, e->name) != (long)i)
            abort();           /* names are unique: each finds its own entry */
        const void *bytes;
        size_t n;
        void *owned;
        if (ts_zip_read(z, i, true, &bytes, &n, &owned, &err) == 0 && n != e->size)
            abort();
        free(owned);
        ts_error_clear(&err);
        TsStorage *s = ts_zip_storage(z, i, &err);
        if (s)
            ts_storage_release(s);
        ts_error_clear(&err);
    }
    ts_zip_release(z);
    return 0;
}
