/* zip.h — the zip container of PyTorch's archives: reading (zero copy) and writing.
 *
 * A torch.jit.save / torch.save file is a zip whose entries share one top folder
 * ("model/data.pkl", "model/data/0", "model/code/__torch__/m.py", ...). Tensor data is
 * stored uncompressed and 64-byte aligned, so a reader can map the file and point tensors
 * straight into it; code and pickles may be deflated. The file is untrusted: every offset
 * and size is checked against the file before use, entries may not overlap each other or
 * the central directory, and a local header must agree with its central record.
 *
 * A TsZip is reference counted: storages made over its memory (ts_zip_storage) hold a
 * reference, so the mapping lives until the last tensor over it dies.
 */
#ifndef TSCRIPT_ZIP_H
#define TSCRIPT_ZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tscript/error.h"
#include "tscript/tensor.h"

typedef struct TsZip TsZip;

enum { TS_ZIP_STORED = 0, TS_ZIP_DEFLATED = 8 };

typedef struct TsZipEntry {
    const char *name;          /* as in the central directory (NUL-free, checked) */
    uint64_t data_offset;      /* of the entry's bytes in the file (after the local header) */
    uint64_t size;             /* uncompressed */
    uint64_t csize;            /* compressed (== size when stored) */
    uint32_t crc32;
    int method;                /* TS_ZIP_STORED or TS_ZIP_DEFLATED; others are refused */
} TsZipEntry;

/* Maps a file (read-only, private) and reads its central directory. Errors name the file
 * and what is wrong ("not a zip file", "entry 'x' lies past the end of the file", ...). */
TsZip *ts_zip_open_file(const char *path, TsError *err);
/* The same over memory the caller owns; release(ctx) runs when the zip dies (may be NULL).
 * name is used in messages. Storages of a memory archive point into that memory, so a
 * tensor written in place writes it: give writable memory, or copy the tensors. */
TsZip *ts_zip_open_memory(const char *name, const void *data, size_t size,
                          void (*release)(void *ctx), void *ctx, TsError *err);
void ts_zip_retain(TsZip *z);
void ts_zip_release(TsZip *z);

const char *ts_zip_filename(const TsZip *z);
size_t ts_zip_count(const TsZip *z);
const TsZipEntry *ts_zip_entry(const TsZip *z, size_t i);
/* The index of the entry with exactly this name, or -1. */
long ts_zip_find(const TsZip *z, const char *name);
/* The top folder every entry shares, with its slash ("model/"), or "" when they share none. */
const char *ts_zip_prefix(const TsZip *z);

/* The bytes of entry i. A stored entry is a pointer into the mapping (*owned = NULL); a
 * deflated one is inflated into malloc'd memory that the caller frees (*owned). The CRC is
 * checked when check_crc (tensor data is not checked on load: it would touch every page). */
int ts_zip_read(TsZip *z, size_t i, bool check_crc, const void **data, size_t *size,
                void **owned, TsError *err);

/* A CPU storage over entry i's bytes: zero copy for a stored entry whose data is 64-byte
 * aligned, as PyTorch writes them (the storage holds a reference to z and, for a mapped
 * file, its writes are private to the process); a copy into aligned memory for a deflated
 * or unaligned one. */
TsStorage *ts_zip_storage(TsZip *z, size_t i, TsError *err);

/* ---- writing ---------------------------------------------------------------------- */

typedef struct TsZipWriter TsZipWriter;

/* Creates path (truncating it). Entries are written stored, their data 64-byte aligned as
 * PyTorch's writer aligns them; zip64 records are written when sizes or offsets need them. */
TsZipWriter *ts_zip_writer_open(const char *path, TsError *err);
int ts_zip_writer_add(TsZipWriter *w, const char *name, const void *data, size_t size,
                      TsError *err);
/* Zip64 records for every entry and the directory even where 32-bit fields would do (they
 * are needed past 4 GB; this lets tests and readers exercise them on small files). */
void ts_zip_writer_set_zip64(TsZipWriter *w, bool always);
/* Writes the central directory and closes the file; frees w either way. Returns 0 or the
 * error (a full disk is an error here or in add). */
int ts_zip_writer_close(TsZipWriter *w, TsError *err);
/* Discards an unfinished file (removes it) and frees w. */
void ts_zip_writer_abort(TsZipWriter *w);

#endif
