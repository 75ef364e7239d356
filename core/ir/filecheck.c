/* filecheck.c — FileCheck: ordered substring checks over text, for the IR tests.
 *
 * The checks form groups: consecutive CHECK-NOTs are one group, consecutive CHECK-DAGs one
 * group, every other check a group of its own. Matching walks the groups keeping the range
 * of the previous match; a CHECK-NOT group is tested over the gap between the previous
 * match and the match of the group after it (or the end of the input). This is the
 * semantics of PyTorch's FileCheck, so tests translate one to one.
 *
 * Reports are built with open_memstream and handed to the TsError whole.
 */
#include "ir/filecheck.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

typedef struct Check {
    TsCheckKind kind;
    char *str;
    size_t count;              /* TS_CHECK_COUNT: how many; else the EXACTLY count or 0 */
    bool exactly;              /* part of a CHECK-COUNT-EXACTLY-N: reported under that name */
} Check;

struct TsFileCheck {
    Check *checks;
    size_t n, cap;
    TsError bad;               /* the first bad builder call, reported by the next run */
};

typedef struct Range {
    size_t start, end;         /* byte offsets into the input, end exclusive */
} Range;

/* One run over one input. */
typedef struct Matcher {
    const Check *checks;
    size_t n;
    const char *text;
    size_t len;
    TsError *err;
} Matcher;

#define NOT_FOUND SIZE_MAX

TsFileCheck *ts_filecheck_new(void)
{
    return calloc(1, sizeof(TsFileCheck));
}

void ts_filecheck_free(TsFileCheck *fc)
{
    if (!fc)
        return;
    for (size_t i = 0; i < fc->n; i++)
        free(fc->checks[i].str);
    free(fc->checks);
    ts_error_clear(&fc->bad);
    free(fc);
}

/* Remembers the first misuse so that a run reports it. */
static int builder_error(TsFileCheck *fc, TsErrorCode code, const char *what)
{
    if (fc->bad.code == TS_OK)
        ts_error_set(&fc->bad, code, "FileCheck: %s", what);
    return code;
}

static int add_check(TsFileCheck *fc, TsCheckKind kind, const char *str, size_t len,
                     size_t count, bool exactly)
{
    if (len == 0)
        return builder_error(fc, TS_ERR_USAGE, "a check needs a non-empty string");
    if (fc->n == fc->cap) {
        size_t cap = fc->cap ? 2 * fc->cap : 8;
        Check *grown = realloc(fc->checks, cap * sizeof *grown);
        if (!grown)
            return builder_error(fc, TS_ERR_NOMEM, "out of memory");
        fc->checks = grown;
        fc->cap = cap;
    }
    char *copy = strndup(str, len);
    if (!copy)
        return builder_error(fc, TS_ERR_NOMEM, "out of memory");
    fc->checks[fc->n++] = (Check){ kind, copy, count, exactly };
    return 0;
}

int ts_filecheck_check(TsFileCheck *fc, TsCheckKind kind, const char *str)
{
    if (!fc)
        return TS_ERR_USAGE;
    if (kind == TS_CHECK_COUNT)
        return builder_error(fc, TS_ERR_USAGE,
                             "CHECK-COUNT is added with ts_filecheck_check_count");
    if ((unsigned)kind > TS_CHECK_DAG)
        return builder_error(fc, TS_ERR_USAGE, "unknown check kind");
    return add_check(fc, kind, str ? str : "", str ? strlen(str) : 0, 0, false);
}

/* CHECK-COUNT-EXACTLY-N is N matches followed by a CHECK-NOT of the same string. */
static int add_count(TsFileCheck *fc, const char *str, size_t len, size_t n, bool exactly)
{
    if (n == 0 && !exactly)
        return builder_error(fc, TS_ERR_USAGE, "CHECK-COUNT-0 checks nothing "
                             "(use CHECK-NOT or CHECK-COUNT-EXACTLY-0)");
    int rc = 0;
    if (n > 0)
        rc = add_check(fc, TS_CHECK_COUNT, str, len, n, exactly);
    if (rc == 0 && exactly)
        rc = add_check(fc, TS_CHECK_NOT, str, len, n, true);
    return rc;
}

int ts_filecheck_check_count(TsFileCheck *fc, const char *str, size_t n, bool exactly)
{
    if (!fc)
        return TS_ERR_USAGE;
    return add_count(fc, str ? str : "", str ? strlen(str) : 0, n, exactly);
}

/* ---- reports ------------------------------------------------------------- */

static void put_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        switch (*s) {
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        default: fputc(*s, f);
        }
    }
    fputc('"', f);
}

static void put_check(FILE *f, const Check *c)
{
    static const char *const names[] = {
        [TS_CHECK] = "CHECK", [TS_CHECK_NEXT] = "CHECK-NEXT", [TS_CHECK_SAME] = "CHECK-SAME",
        [TS_CHECK_NOT] = "CHECK-NOT", [TS_CHECK_COUNT] = "CHECK-COUNT", [TS_CHECK_DAG] = "CHECK-DAG",
    };
    if (c->exactly)
        fprintf(f, "CHECK-COUNT-EXACTLY-%zu: %s", c->count, c->str);
    else if (c->kind == TS_CHECK_COUNT)
        fprintf(f, "CHECK-COUNT-%zu: %s", c->count, c->str);
    else
        fprintf(f, "%s: %s", names[c->kind], c->str);
}

/* The text around [start, end): two lines before, the line holding start with a
 * "~~~ <--- HERE" marker under the range (cut at the line's end), two lines after. */
static void put_highlight(FILE *f, const char *text, size_t len, size_t start, size_t end)
{
    enum { CONTEXT = 2 };
    if (start > len)
        start = len;
    size_t line_start = start, line_end = start;
    while (line_start > 0 && text[line_start - 1] != '\n')
        line_start--;
    while (line_end < len && text[line_end] != '\n')
        line_end++;
    size_t from = line_start;
    for (int k = 0; k < CONTEXT && from > 0; k++) {
        from--;
        while (from > 0 && text[from - 1] != '\n')
            from--;
    }
    fwrite(text + from, 1, line_end - from, f);
    fputc('\n', f);
    for (size_t i = line_start; i < start; i++)
        fputc(text[i] == '\t' ? '\t' : ' ', f);
    size_t mark_end = end < line_end ? end : line_end;
    size_t marks = mark_end > start ? mark_end - start : 1;
    for (size_t i = 0; i < marks; i++)
        fputc('~', f);
    fputs(" <--- HERE\n", f);
    size_t p = line_end;
    for (int k = 0; k < CONTEXT && p < len && p + 1 < len; k++) {
        size_t q = ++p;
        while (q < len && text[q] != '\n')
            q++;
        fwrite(text + p, 1, q - p, f);
        fputc('\n', f);
        p = q;
    }
}

/* Hands a finished report to err, without its final newline. The stream owns *bufp until
 * fclose, which sets it. */
static int report(TsError *err, TsErrorCode code, FILE *f, char **bufp, size_t *sizep)
{
    int closed = fclose(f);
    char *buf = *bufp;
    size_t size = *sizep;
    if (closed != 0 || !buf) {
        free(buf);
        return ts_error_set(err, TS_ERR_NOMEM, "FileCheck: out of memory");
    }
    if (size > 0 && buf[size - 1] == '\n')
        buf[size - 1] = '\0';
    ts_error_set(err, code, "%s", buf);
    free(buf);
    return code;
}

/* ---- matching ------------------------------------------------------------ */

/* The first occurrence of sub starting in [from, to) and ending by to, or NOT_FOUND. */
static size_t find(const Matcher *m, const char *sub, size_t from, size_t to)
{
    size_t n = strlen(sub);
    if (to > m->len)
        to = m->len;
    if (from > to || to - from < n)
        return NOT_FOUND;
    const char *p = memmem(m->text + from, to - from, sub, n);
    return p ? (size_t)(p - m->text) : NOT_FOUND;
}

static int fail_find(const Matcher *m, const Check *c, const char *sub, size_t from)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f)
        return ts_error_set(m->err, TS_ERR_NOMEM, "FileCheck: out of memory");
    fputs("Expected to find ", f);
    put_quoted(f, sub);
    fputs(" but did not find it\nSearched string:\n", f);
    put_highlight(f, m->text, m->len, from, from + strlen(sub));
    fputs("From ", f);
    put_check(f, c);
    fputc('\n', f);
    return report(m->err, TS_ERR_RUNTIME, f, &buf, &size);
}

/* c's string was found where it must not be: `where` says where it was expected (NULL: c
 * is a CHECK-NOT). */
static int fail_found(const Matcher *m, const Check *c, const char *where, size_t pos,
                      size_t n)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f)
        return ts_error_set(m->err, TS_ERR_NOMEM, "FileCheck: out of memory");
    fputs(where ? "Expected to find " : "Expected to not find ", f);
    put_quoted(f, c->str);
    fputs(where ? where : " but found it", f);
    fputc('\n', f);
    put_highlight(f, m->text, m->len, pos, pos + n);
    fputs("From ", f);
    put_check(f, c);
    fputc('\n', f);
    return report(m->err, TS_ERR_RUNTIME, f, &buf, &size);
}

static int assert_find(const Matcher *m, const Check *c, size_t from, size_t *pos)
{
    *pos = find(m, c->str, from, m->len);
    return *pos == NOT_FOUND ? fail_find(m, c, c->str, from) : 0;
}

static int assert_not_find(const Matcher *m, const Check *c, size_t from, size_t to)
{
    size_t pos = find(m, c->str, from, to);
    return pos == NOT_FOUND ? 0 : fail_found(m, c, NULL, pos, strlen(c->str));
}

/* Consecutive CHECK-DAGs: each anywhere after prev; the group spans all their matches. */
static int match_dag(const Matcher *m, size_t first, size_t n, Range prev, Range *out)
{
    Range r = { NOT_FOUND, 0 };
    for (size_t i = first; i < first + n; i++) {
        size_t pos;
        int rc = assert_find(m, &m->checks[i], prev.end, &pos);
        if (rc)
            return rc;
        size_t end = pos + strlen(m->checks[i].str);
        if (pos < r.start)
            r.start = pos;
        if (end > r.end)
            r.end = end;
    }
    *out = r;
    return 0;
}

static int match_one(const Matcher *m, const Check *c, Range prev, Range *out)
{
    size_t n = strlen(c->str), pos = prev.end;
    int rc;
    switch (c->kind) {
    case TS_CHECK:
        if ((rc = assert_find(m, c, prev.end, &pos)))
            return rc;
        break;
    case TS_CHECK_SAME:
        if ((rc = assert_find(m, c, prev.end, &pos)))
            return rc;
        if (memchr(m->text + prev.end, '\n', pos - prev.end))
            return fail_found(m, c, " on the line of the previous match but found "
                              "it on a later line", pos, n);
        break;
    case TS_CHECK_NEXT: {
        const char *nl = memchr(m->text + prev.end, '\n', m->len - prev.end);
        if (!nl)
            return fail_find(m, c, "\n", prev.end);
        size_t next_line = (size_t)(nl - m->text) + 1;
        if ((rc = assert_find(m, c, next_line, &pos)))
            return rc;
        if (memchr(m->text + next_line, '\n', pos - next_line))
            return fail_found(m, c, " on the line after the previous match but "
                              "found it on a later line", pos, n);
        break;
    }
    case TS_CHECK_COUNT: {
        size_t from = prev.end, first = NOT_FOUND;
        for (size_t i = 0; i < c->count; i++) {
            if ((rc = assert_find(m, c, from, &pos)))
                return rc;
            if (first == NOT_FOUND)
                first = pos;
            from = pos + n;
        }
        *out = (Range){ first, from };
        return 0;
    }
    case TS_CHECK_NOT:
    case TS_CHECK_DAG:
        break;             /* matched as groups by the caller */
    }
    *out = (Range){ pos, pos + n };
    return 0;
}

/* How many checks from i form its group. */
static size_t group_size(const Matcher *m, size_t i)
{
    TsCheckKind kind = m->checks[i].kind;
    size_t j = i + 1;
    if (kind == TS_CHECK_NOT || kind == TS_CHECK_DAG)
        while (j < m->n && m->checks[j].kind == kind)
            j++;
    return j - i;
}

static int match_group(const Matcher *m, size_t i, size_t n, Range prev, Range *out)
{
    if (m->checks[i].kind == TS_CHECK_DAG)
        return match_dag(m, i, n, prev, out);
    return match_one(m, &m->checks[i], prev, out);
}

static int check_nots(const Matcher *m, size_t i, size_t n, size_t from, size_t to)
{
    if (to < from)
        return 0;
    for (size_t k = i; k < i + n; k++) {
        int rc = assert_not_find(m, &m->checks[k], from, to);
        if (rc)
            return rc;
    }
    return 0;
}

int ts_filecheck_run(TsFileCheck *fc, const char *input, TsError *err)
{
    if (!fc || !input)
        return ts_error_set(err, TS_ERR_USAGE, "FileCheck: no checker or no input");
    if (fc->bad.code != TS_OK)
        return ts_error_set(err, fc->bad.code, "%s", fc->bad.msg);
    if (fc->n == 0)
        return ts_error_set(err, TS_ERR_USAGE, "FileCheck: no checks were added (in text, "
                            "directives are comment lines like '# CHECK: aten::add')");
    Matcher m = { fc->checks, fc->n, input, strlen(input), err };
    Range prev = { 0, 0 };
    size_t i = 0;
    while (i < m.n) {
        size_t n = group_size(&m, i);
        int rc;
        if (m.checks[i].kind != TS_CHECK_NOT) {
            rc = match_group(&m, i, n, prev, &prev);
            i += n;
        } else if (i + n < m.n) {
            size_t next_n = group_size(&m, i + n);
            Range next;
            rc = match_group(&m, i + n, next_n, prev, &next);
            if (rc == 0)
                rc = check_nots(&m, i, n, prev.end, next.start);
            prev = next;
            i += n + next_n;
        } else {
            rc = check_nots(&m, i, n, prev.end, m.len);
            i += n;
        }
        if (rc)
            return rc;
    }
    return 0;
}

int ts_filecheck_run_graph(TsFileCheck *fc, const TsGraph *g, TsError *err)
{
    if (!g)
        return ts_error_set(err, TS_ERR_USAGE, "FileCheck: no graph");
    char *text = ts_graph_to_string(g, true);
    if (!text)
        return ts_error_set(err, TS_ERR_NOMEM, "FileCheck: out of memory");
    int rc = ts_filecheck_run(fc, text, err);
    free(text);
    return rc;
}

/* ---- the text form ------------------------------------------------------- */

/* A '#', at most 6 blanks, then "CHECK": returns the offset after "CHECK", or NOT_FOUND. */
static size_t next_directive(const char *text, size_t from)
{
    for (const char *hash = strchr(text + from, '#'); hash; hash = strchr(hash + 1, '#')) {
        const char *p = hash + 1;
        for (int blanks = 0; blanks < 6 && (*p == ' ' || *p == '\t'); blanks++)
            p++;
        if (strncmp(p, "CHECK", 5) == 0)
            return (size_t)(p + 5 - text);
    }
    return NOT_FOUND;
}

static size_t line_of(const char *text, size_t pos)
{
    size_t line = 1;
    for (size_t i = 0; i < pos; i++)
        line += text[i] == '\n';
    return line;
}

static int parse_error(const char *text, size_t pos, TsError *err)
{
    size_t line = line_of(text, pos);
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f)
        return ts_error_set(err, TS_ERR_NOMEM, "FileCheck: out of memory");
    fprintf(f, "FileCheck: could not parse the check on line %zu:\n", line);
    put_highlight(f, text, strlen(text), pos, pos + 1);
    fputs("expected CHECK: , CHECK-NEXT: , CHECK-SAME: , CHECK-NOT: , CHECK-DAG: , "
          "CHECK-COUNT-N: or CHECK-COUNT-EXACTLY-N: followed by the string\n", f);
    return report(err, TS_ERR_SYNTAX, f, &buf, &size);
}

/* Digits then ": " at *p: the count, advancing *p; false if malformed. */
static bool parse_count(const char **p, size_t *count)
{
    const char *s = *p;
    size_t n = 0;
    if (*s < '0' || *s > '9')
        return false;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (n > (SIZE_MAX - 9) / 10)
            return false;
        n = n * 10 + (size_t)(*s - '0');
    }
    if (s[0] != ':' || s[1] != ' ')
        return false;
    *p = s + 2;
    *count = n;
    return true;
}

int ts_filecheck_parse(TsFileCheck *fc, const char *checks, TsError *err)
{
    static const struct { const char *suffix; TsCheckKind kind; } forms[] = {
        { ": ", TS_CHECK }, { "-NEXT: ", TS_CHECK_NEXT }, { "-SAME: ", TS_CHECK_SAME },
        { "-NOT: ", TS_CHECK_NOT }, { "-DAG: ", TS_CHECK_DAG }, { "-COUNT-", TS_CHECK_COUNT },
    };
    if (!fc || !checks)
        return ts_error_set(err, TS_ERR_USAGE, "FileCheck: no checker or no checks text");
    for (size_t pos = next_directive(checks, 0); pos != NOT_FOUND;
         pos = next_directive(checks, pos)) {
        const char *p = checks + pos;
        size_t k = 0;
        while (k < sizeof forms / sizeof forms[0]
               && strncmp(p, forms[k].suffix, strlen(forms[k].suffix)) != 0)
            k++;
        if (k == sizeof forms / sizeof forms[0])
            return parse_error(checks, pos, err);
        p += strlen(forms[k].suffix);
        size_t count = 0;
        bool exactly = false;
        if (forms[k].kind == TS_CHECK_COUNT) {
            if (strncmp(p, "EXACTLY-", 8) == 0) {
                exactly = true;
                p += 8;
            }
            if (!parse_count(&p, &count))
                return parse_error(checks, pos, err);
        }
        const char *end = strchr(p, '\n');
        if (!end)
            end = p + strlen(p);
        int rc = forms[k].kind == TS_CHECK_COUNT
                     ? add_count(fc, p, (size_t)(end - p), count, exactly)
                     : add_check(fc, forms[k].kind, p, (size_t)(end - p), 0, false);
        if (rc) {
            ts_error_move(err, &fc->bad);
            ts_error_prefix(err, "line %zu: ", line_of(checks, pos));
            return rc;
        }
        pos = (size_t)(end - checks);
    }
    return 0;
}

int ts_filecheck_run_text(const char *checks, const char *input, TsError *err)
{
    TsFileCheck *fc = ts_filecheck_new();
    if (!fc)
        return ts_error_set(err, TS_ERR_NOMEM, "FileCheck: out of memory");
    int rc = ts_filecheck_parse(fc, checks, err);
    if (rc == 0)
        rc = ts_filecheck_run(fc, input, err);
    ts_filecheck_free(fc);
    return rc;
}

int ts_filecheck_run_text_graph(const char *checks, const TsGraph *g, TsError *err)
{
    TsFileCheck *fc = ts_filecheck_new();
    if (!fc)
        return ts_error_set(err, TS_ERR_NOMEM, "FileCheck: out of memory");
    int rc = ts_filecheck_parse(fc, checks, err);
    if (rc == 0)
        rc = ts_filecheck_run_graph(fc, g, err);
    ts_filecheck_free(fc);
    return rc;
}
