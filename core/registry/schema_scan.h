/* schema_scan.h — a fast reader for the plain shape of schema set files (internal).
 *
 * libyaml reads a schema file at ~200 instructions a byte, most of startup before this
 * scanner existed. Schema files are almost always the simple shape of the examples in
 * yaml_schemas.c; this scanner reads exactly that subset of YAML in one pass and declines
 * everything else, so yaml_schemas.c falls back to libyaml for it. See schema_scan.c for the
 * subset.
 */
#ifndef TSCRIPT_SCHEMA_SCAN_H
#define TSCRIPT_SCHEMA_SCAN_H

#include <stdbool.h>
#include <stddef.h>

/* One `func:` value: bytes [off, off + len) of the text, a plain scalar or the inside of a
 * single-quoted one (where "''" stands for "'"); line and col (1-based) are those of the
 * scalar's first character (the quote), as libyaml reports them. */
typedef struct TsScanFunc {
    size_t off, len;
    int line, col;
    bool single_quoted;
} TsScanFunc;

typedef struct TsScan {
    size_t n, cap;
    TsScanFunc *funcs;         /* in file order */
    bool has_namespace;        /* shape 2: namespace is text[ns_off, ns_off + ns_len) */
    size_t ns_off, ns_len;
} TsScan;

enum { TS_SCAN_DECLINED = -1 };

/* Scans text into *out: 0 when the text is in the subset (out holds what libyaml would
 * have read), TS_SCAN_DECLINED when it is not (or may hold an error: the caller reads it
 * with libyaml), TS_ERR_NOMEM. The caller frees out with ts_scan_free in every case. */
int ts_schema_scan(const char *text, size_t len, TsScan *out);
void ts_scan_free(TsScan *s);

#endif
