/* source.h — source text with a name, and ranges into it, for error messages.
 *
 * Every error a user sees about their input (a program, a schema file, a config, IR text)
 * says where: "file:line:col" and, for programs and IR, the source line with a
 * "~~~ <--- HERE" marker under the range, as PyTorch prints it. A TsSource is shared by
 * everything that points into it (tokens, trees, graph nodes), so it is reference counted.
 */
#ifndef TSCRIPT_SOURCE_H
#define TSCRIPT_SOURCE_H

#include <stdatomic.h>
#include <stddef.h>

#include "tscript/error.h"

typedef struct TsSourceOrigin TsSourceOrigin;

typedef struct TsSource {
    atomic_uint refcount;
    char *filename;            /* "<string>" when there is no file */
    char *text;                /* NUL-terminated copy */
    size_t len;
    size_t *line_starts;       /* byte offset of each line's first character */
    size_t n_lines;
    size_t line_base;          /* lines before the text in its file: a fragment of a file
                                * numbers its lines from line_base + 1 */
    TsSourceOrigin *origins;   /* generated code: where its ranges came from (owned), or NULL */
    size_t n_origins;
} TsSource;

typedef struct TsSourceRange {
    TsSource *source;          /* NULL: no location known */
    size_t start, end;         /* byte offsets, end exclusive */
} TsSourceRange;

/* One step of a generated source's map back to the code it was made from (an archive's
 * serialized code and its .debug_pkl): ranges of the generated source that start at
 * offset or later, up to the next step, came from range. */
struct TsSourceOrigin {
    size_t offset;
    TsSourceRange range;       /* holds a reference on range.source */
};

/* Copies text; filename NULL means "<string>". */
TsSource *ts_source_new(const char *filename, const char *text, size_t len, TsError *err);
/* Reads a whole file; the error names the file and the system's reason. */
/* The most source a file may hold: programs are small, and a device like /dev/zero never
 * ends. */
#define TS_SOURCE_MAX ((size_t)64 << 20)

/* A file's whole contents (malloc'd, NUL-terminated; *len without the NUL), refusing more than
 * max bytes; errors name the file and the reason ("Is a directory"). */
char *ts_read_file(const char *path, size_t max, size_t *len, TsError *err);
TsSource *ts_source_read_file(const char *path, TsError *err);
void ts_source_retain(TsSource *s);
void ts_source_release(TsSource *s);

/* Gives s its map back to the original code: n steps sorted by offset, taken (s frees them
 * and releases their sources). */
void ts_source_set_origins(TsSource *s, TsSourceOrigin *steps, size_t n);
/* Where r came from: the range of the last step at or before r.start, or a range with no
 * source when r's source has no map. */
TsSourceRange ts_source_origin(TsSourceRange r);

/* 1-based line and column of a byte offset (the column counts bytes). */
void ts_source_line_col(const TsSource *s, size_t offset, size_t *line, size_t *col);

/* Appends to err's message, in PyTorch's form:
 *     <message>:
 *       File "file", line 3
 *     <the source line(s)>
 *         ~~~~~ <--- HERE
 * Returns err's code. */
int ts_error_at(TsError *err, TsErrorCode code, TsSourceRange range, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The excerpt alone ("  File ..., line N\n<line>\n~~~ <--- HERE\n"), malloc'd. */
char *ts_source_excerpt(TsSourceRange range);

#endif
