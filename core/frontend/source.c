/* source.c — named source text, line tables, and PyTorch-style excerpts for errors.
 *
 * The excerpt format follows PyTorch 1.13: 'File "name", line N', two lines of context
 * before and after the line where the range starts, and under that line a marker of '~'
 * spanning the range (to the end of the line when the range goes on) and " <--- HERE".
 * Unlike PyTorch's, an excerpt quotes at most a window of a long line (excerpt_window).
 */
#include "frontend/source.h"
#include "tscript/strbuf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CONTEXT_LINES = 2 };

static int build_lines(TsSource *s, TsError *err)
{
    size_t n = 1;
    for (size_t i = 0; i < s->len; i++)
        if (s->text[i] == '\n')
            n++;
    s->line_starts = malloc(n * sizeof *s->line_starts);
    if (!s->line_starts)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory reading %s", s->filename);
    s->n_lines = 0;
    s->line_starts[s->n_lines++] = 0;
    for (size_t i = 0; i < s->len; i++)
        if (s->text[i] == '\n')
            s->line_starts[s->n_lines++] = i + 1;
    return 0;
}

TsSource *ts_source_new(const char *filename, const char *text, size_t len, TsError *err)
{
    TsSource *s = calloc(1, sizeof *s);
    if (!s) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    atomic_init(&s->refcount, 1);
    s->filename = strdup(filename ? filename : "<string>");
    s->text = malloc(len + 1);
    if (!s->filename || !s->text) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        ts_source_release(s);
        return NULL;
    }
    memcpy(s->text, text, len);
    s->text[len] = '\0';
    s->len = len;
    if (build_lines(s, err)) {
        ts_source_release(s);
        return NULL;
    }
    return s;
}

char *ts_read_file(const char *path, size_t max, size_t *len_out, TsError *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        ts_error_set(err, TS_ERR_IO, "%s: %s", path, strerror(errno));
        return NULL;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int failed = 0;
    for (;;) {
        if (cap - len < 4096) {
            size_t nc = cap ? cap * 2 : 8192;
            char *nb = nc > cap ? realloc(buf, nc + 1) : NULL;
            if (!nb) {
                free(buf);
                fclose(f);
                ts_error_set(err, TS_ERR_NOMEM, "%s: out of memory", path);
                return NULL;
            }
            buf = nb;
            cap = nc;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (len > max) {
            free(buf);
            fclose(f);
            ts_error_set(err, TS_ERR_LIMIT, "%s: larger than %zu bytes, the most read here",
                         path, max);
            return NULL;
        }
        if (got == 0) {
            failed = ferror(f) ? errno : 0;
            break;
        }
    }
    fclose(f);
    if (failed) {
        free(buf);
        ts_error_set(err, TS_ERR_IO, "%s: %s", path, strerror(failed));
        return NULL;
    }
    buf[len] = '\0';
    *len_out = len;
    return buf;
}

TsSource *ts_source_read_file(const char *path, TsError *err)
{
    size_t len;
    char *buf = ts_read_file(path, TS_SOURCE_MAX, &len, err);
    if (!buf)
        return NULL;
    TsSource *s = ts_source_new(path, buf, len, err);
    free(buf);
    return s;
}

void ts_source_retain(TsSource *s)
{
    if (s)
        atomic_fetch_add_explicit(&s->refcount, 1, memory_order_relaxed);
}

void ts_source_release(TsSource *s)
{
    if (!s || atomic_fetch_sub_explicit(&s->refcount, 1, memory_order_acq_rel) != 1)
        return;
    free(s->filename);
    free(s->text);
    free(s->line_starts);
    for (size_t i = 0; i < s->n_origins; i++)
        ts_source_release(s->origins[i].range.source);
    free(s->origins);
    free(s);
}

void ts_source_set_origins(TsSource *s, TsSourceOrigin *steps, size_t n)
{
    for (size_t i = 0; i < s->n_origins; i++)
        ts_source_release(s->origins[i].range.source);
    free(s->origins);
    s->origins = steps;
    s->n_origins = n;
}

TsSourceRange ts_source_origin(TsSourceRange r)
{
    TsSourceRange none = { NULL, 0, 0 };
    const TsSource *s = r.source;
    if (!s || !s->n_origins || r.start < s->origins[0].offset)
        return none;
    size_t lo = 0, hi = s->n_origins;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->origins[mid].offset <= r.start)
            lo = mid;
        else
            hi = mid;
    }
    return s->origins[lo].range;
}

/* The index of the line holding offset (binary search over line starts). */
static size_t line_index(const TsSource *s, size_t offset)
{
    size_t lo = 0, hi = s->n_lines;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->line_starts[mid] <= offset)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

void ts_source_line_col(const TsSource *s, size_t offset, size_t *line, size_t *col)
{
    if (offset > s->len)
        offset = s->len;
    size_t li = line_index(s, offset);
    *line = s->line_base + li + 1;
    *col = offset - s->line_starts[li] + 1;
}

static size_t line_end(const TsSource *s, size_t li)
{
    size_t e = li + 1 < s->n_lines ? s->line_starts[li + 1] - 1 : s->len;
    if (e > s->line_starts[li] && s->text[e - 1] == '\r')
        e--;
    return e;
}

/* The columns an excerpt quotes: every line whole, unless one is longer than EXCERPT_WIDTH;
 * then the same window of each, from EXCERPT_BEFORE columns before the range, with "..."
 * where a line is cut. A one-line program of a megabyte gives an error of a few lines. */
enum { EXCERPT_WIDTH = 160, EXCERPT_BEFORE = 60 };

typedef struct Window {
    size_t from, to;           /* byte columns [from, to); to == SIZE_MAX: whole lines */
} Window;

static bool is_cont(const TsSource *s, size_t at)
{
    return at < s->len && ((unsigned char)s->text[at] & 0xc0) == 0x80;
}

/* Appends line li's part in the window, cut on UTF-8 character boundaries. */
static void buf_line(TsBuf *b, const TsSource *s, size_t li, Window w)
{
    size_t st = s->line_starts[li], eol = line_end(s, li);
    size_t from = w.from < eol - st ? st + w.from : eol;
    size_t to = w.to < eol - st ? st + w.to : eol;
    while (from < to && is_cont(s, from))
        from++;
    while (to > from && to < eol && is_cont(s, to))
        to--;
    if (from > st)
        ts_buf_add(b, "...", 3);
    /* a NUL byte would end the message the excerpt goes into: it shows as a space */
    for (const char *p = s->text + from, *e = s->text + to, *z; p < e; p = z + 1) {
        z = memchr(p, 0, (size_t)(e - p));
        ts_buf_add(b, p, (size_t)((z ? z : e) - p));
        if (!z)
            break;
        ts_buf_add(b, " ", 1);
    }
    if (to < eol)
        ts_buf_add(b, "...", 3);
    ts_buf_add(b, "\n", 1);
}

static Window excerpt_window(const TsSource *s, size_t first, size_t last, size_t col)
{
    Window w = {0, SIZE_MAX};
    for (size_t i = first; i <= last && i < s->n_lines; i++)
        if (line_end(s, i) - s->line_starts[i] > EXCERPT_WIDTH) {
            w.from = col > EXCERPT_BEFORE ? col - EXCERPT_BEFORE : 0;
            w.to = w.from + EXCERPT_WIDTH;
            break;
        }
    return w;
}

char *ts_source_excerpt(TsSourceRange r)
{
    const TsSource *s = r.source;
    if (!s)
        return strdup("");
    size_t start = r.start > s->len ? s->len : r.start;
    size_t end = r.end < start ? start : (r.end > s->len ? s->len : r.end);
    size_t li = line_index(s, start);
    TsBuf b = TS_BUF_INIT;
    char head[64];
    ts_buf_add(&b, "  File \"", 8);
    ts_buf_add(&b, s->filename, strlen(s->filename));
    int n = snprintf(head, sizeof head, "\", line %zu\n", s->line_base + li + 1);
    ts_buf_add(&b, head, (size_t)n);
    size_t first = li >= CONTEXT_LINES ? li - CONTEXT_LINES : 0;
    size_t col = start - s->line_starts[li];
    Window w = excerpt_window(s, first, li + CONTEXT_LINES, col);
    for (size_t i = first; i <= li; i++)
        buf_line(&b, s, i, w);
    size_t eol = line_end(s, li);
    /* a range may start past the line's text (at the '\r' of a line end, or at the end
     * of a file ending in a lone '\r'): one marker then */
    size_t stop = end < eol ? end : eol;
    size_t width = stop > start ? stop - start : 1;
    size_t pad = col;
    if (w.to != SIZE_MAX) {    /* under the window's part of the line, past its "..." */
        pad = col - w.from + (w.from > 0 ? 3 : 0);
        if (width > w.to - col)
            width = w.to - col;
    }
    for (size_t i = 0; i < pad; i++)
        ts_buf_add(&b, " ", 1);
    for (size_t i = 0; i < width; i++)
        ts_buf_add(&b, "~", 1);
    ts_buf_add(&b, " <--- HERE\n", 11);
    for (size_t i = li + 1; i < s->n_lines && i <= li + CONTEXT_LINES; i++) {
        if (i == s->n_lines - 1 && s->line_starts[i] == s->len)
            break;   /* the empty "line" after a final newline */
        buf_line(&b, s, i, w);
    }
    return ts_buf_take(&b, NULL);
}

int ts_error_at(TsError *err, TsErrorCode code, TsSourceRange range, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ts_error_setv(err, code, fmt, ap);
    va_end(ap);
    if (!range.source || !err)
        return code;
    char *ex = ts_source_excerpt(range);
    if (!ex)
        return code;
    size_t ml = strlen(err->msg), el = strlen(ex);
    char *m = malloc(ml + 2 + el + 1);
    if (m) {
        memcpy(m, err->msg, ml);
        memcpy(m + ml, ":\n", 2);
        memcpy(m + ml + 2, ex, el + 1);
        TsError tmp = {code, m};
        ts_error_move(err, &tmp);
    }
    free(ex);
    return code;
}
