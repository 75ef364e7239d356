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

typedef struct TsSource {
    atomic_uint refcount;
    char *filename;            /* "<string>" when there is no file */
    char *text;                /* NUL-terminated copy */
    size_t len;
    size_t *line_starts;       /* byte offset of each line's first character */
    size_t n_lines;
} TsSource;

typedef struct TsSourceRange {
    TsSource *source;          /* NULL: no location known */
    size_t start, end;         /* byte offsets, end exclusive */
} TsSourceRange;

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
