/* log.c — per-pass logging (TSCRIPT_LOG_LEVEL) and the optimization limiter
 * (TSCRIPT_OPT_LIMIT); see log.h for the syntax of both variables.
 *
 * The variables are parsed on first use into two small tables keyed by a pass's file base
 * name ("dead_code"). A mutex guards the tables and the limit counters; an atomic summary
 * of what is configured lets the common case (nothing configured) return without locking.
 */
#include "ir/log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

typedef struct LogEntry {
    char *name;                /* base name without extension */
    int level;                 /* highest enabled TsLogLevel */
} LogEntry;

typedef struct LimitEntry {
    char *name;
    long long limit;           /* optimizations allowed */
    long long used;
} LimitEntry;

enum { CONF_LOADED = 1, CONF_LOG = 2, CONF_LIMIT = 4 };

static pthread_mutex_t conf_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int conf_state;  /* CONF_* bits; 0 until the variables are read */
static LogEntry *log_entries;
static size_t n_log_entries;
static LimitEntry *limit_entries;
static size_t n_limit_entries;
static FILE *log_out;          /* NULL: stderr */

/* The base name of path without its last extension: "../passes/dead_code.c" gives
 * "dead_code" (*len = 9). */
static const char *pass_name(const char *path, size_t *len)
{
    const char *base = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\')
            base = p + 1;
    const char *dot = strrchr(base, '.');
    *len = dot ? (size_t)(dot - base) : strlen(base);
    return base;
}

static FILE *out_stream(void)
{
    return log_out ? log_out : stderr;
}

static void conf_free(void)
{
    for (size_t i = 0; i < n_log_entries; i++)
        free(log_entries[i].name);
    for (size_t i = 0; i < n_limit_entries; i++)
        free(limit_entries[i].name);
    free(log_entries);
    free(limit_entries);
    log_entries = NULL;
    limit_entries = NULL;
    n_log_entries = n_limit_entries = 0;
}

static bool same_name(const char *name, const char *s, size_t len)
{
    return strlen(name) == len && memcmp(name, s, len) == 0;
}

static LogEntry *find_log(const char *s, size_t len)
{
    for (size_t i = 0; i < n_log_entries; i++)
        if (same_name(log_entries[i].name, s, len))
            return &log_entries[i];
    return NULL;
}

static LimitEntry *find_limit(const char *s, size_t len)
{
    for (size_t i = 0; i < n_limit_entries; i++)
        if (same_name(limit_entries[i].name, s, len))
            return &limit_entries[i];
    return NULL;
}

/* Counts the ':'-separated items of spec: an upper bound for the table size. */
static size_t count_items(const char *spec)
{
    size_t n = 1;
    for (const char *p = spec; *p; p++)
        n += *p == ':';
    return n;
}

/* ---- the syntax of the variables ------------------------------------------------------ */
/* Where the items of a variable go wrong. An unknown pass name is no error (PyTorch ignores
 * those too); a malformed item is, and ts_log_check_env() says which. The parsers skip
 * malformed items, so a program that ignores the check still runs. */
static bool is_file_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '.' || c == '-' || c == '/';
}

static bool is_file_name(const char *s, size_t len)
{
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!is_file_char(s[i]))
            return false;
    return true;
}

/* A TSCRIPT_LOG_LEVEL item: '>'* then a file name; an empty item is allowed ("a::b"). */
static bool log_item_ok(const char *item, size_t len)
{
    size_t i = 0;
    while (i < len && item[i] == '>')
        i++;
    return len == 0 || is_file_name(item + i, len - i);
}

/* A TSCRIPT_OPT_LIMIT item: file=count, count decimal digits within int64. */
static bool limit_item_ok(const char *item, size_t len, long long *limit)
{
    const char *eq = memchr(item, '=', len), *end = item + len;
    if (!eq || !is_file_name(item, (size_t)(eq - item)) || eq + 1 == end)
        return false;
    long long n = 0;
    for (const char *p = eq + 1; p < end; p++) {
        if (*p < '0' || *p > '9' || n > (INT64_MAX - (*p - '0')) / 10)
            return false;
        n = n * 10 + (*p - '0');
    }
    *limit = n;
    return true;
}

/* The first malformed item of spec, or NULL; *len is its length. */
static const char *bad_item(const char *spec, bool limits, size_t *len)
{
    for (const char *item = spec; item; ) {
        const char *colon = strchr(item, ':');
        size_t n = colon ? (size_t)(colon - item) : strlen(item);
        long long ignored;
        if (limits ? n > 0 && !limit_item_ok(item, n, &ignored) : !log_item_ok(item, n)) {
            *len = n;
            return item;
        }
        item = colon ? colon + 1 : NULL;
    }
    return NULL;
}

int ts_log_check_env(TsError *err)
{
    static const struct { const char *var, *want; bool limits; } vars[] = {
        { "TSCRIPT_LOG_LEVEL", "a pass's file name after any '>'s", false },
        { "TSCRIPT_OPT_LIMIT", "pass=count, count a non-negative integer", true },
    };
    for (size_t v = 0; v < sizeof vars / sizeof vars[0]; v++) {
        const char *spec = getenv(vars[v].var), *bad;
        size_t len;
        if (spec && (bad = bad_item(spec, vars[v].limits, &len)))
            return ts_error_set(err, TS_ERR_CONFIG, "%s: '%.*s' is malformed (expected %s)",
                                vars[v].var, (int)(len > 200 ? 200 : len), bad, vars[v].want);
    }
    return 0;
}

/* ---- the tables -------------------------------------------------------------------------- */
/* "dead_code:>constant_prop.c:>>alias": each item is '>'* then a file name. As in
 * PyTorch, the first mention of a file wins. Out of memory leaves logging off. */
static void parse_log_spec(const char *spec)
{
    log_entries = calloc(count_items(spec), sizeof *log_entries);
    if (!log_entries)
        return;
    for (const char *item = spec; item; ) {
        const char *colon = strchr(item, ':');
        size_t item_len = colon ? (size_t)(colon - item) : strlen(item);
        int level = 0;
        if (!log_item_ok(item, item_len))
            item_len = 0;      /* skipped */
        while (item_len > 0 && *item == '>') {
            level++;
            item++;
            item_len--;
        }
        if (level > TS_LOG_DEBUG)
            level = TS_LOG_DEBUG;
        /* Strip the extension within this item only. */
        size_t len = item_len;
        for (size_t i = item_len; i > 0; i--)
            if (item[i - 1] == '.') {
                len = i - 1;
                break;
            }
        if (len > 0 && !find_log(item, len)) {
            char *name = strndup(item, len);
            if (!name)
                return;
            log_entries[n_log_entries].name = name;
            log_entries[n_log_entries].level = level;
            n_log_entries++;
        }
        item = colon ? colon + 1 : NULL;
    }
}

/* "constant_prop=3:dead_code=10". Malformed items are skipped (ts_log_check_env). */
static void parse_limit_spec(const char *spec)
{
    limit_entries = calloc(count_items(spec), sizeof *limit_entries);
    if (!limit_entries)
        return;
    for (const char *item = spec; item; ) {
        const char *colon = strchr(item, ':');
        size_t item_len = colon ? (size_t)(colon - item) : strlen(item);
        const char *eq = memchr(item, '=', item_len);
        long long limit = 0;
        if (limit_item_ok(item, item_len, &limit)) {
            size_t len;
            char *whole = strndup(item, (size_t)(eq - item));
            if (!whole)
                return;
            const char *name = pass_name(whole, &len);
            if (len > 0 && !find_limit(name, len)) {
                char *copy = strndup(name, len);
                if (!copy) {
                    free(whole);
                    return;
                }
                limit_entries[n_limit_entries].name = copy;
                limit_entries[n_limit_entries].limit = limit;
                limit_entries[n_limit_entries].used = 0;
                n_limit_entries++;
            }
            free(whole);
        }
        item = colon ? colon + 1 : NULL;
    }
}

/* Called with conf_lock held. */
static void conf_load(void)
{
    conf_free();
    const char *spec = getenv("TSCRIPT_LOG_LEVEL");
    if (spec && *spec)
        parse_log_spec(spec);
    spec = getenv("TSCRIPT_OPT_LIMIT");
    if (spec && *spec)
        parse_limit_spec(spec);
    atomic_store(&conf_state, CONF_LOADED | (n_log_entries ? CONF_LOG : 0)
                                          | (n_limit_entries ? CONF_LIMIT : 0));
}

/* The CONF_* bits, reading the variables first if this is the first use. */
static int conf_get(void)
{
    int state = atomic_load(&conf_state);
    if (state)
        return state;
    pthread_mutex_lock(&conf_lock);
    if (!atomic_load(&conf_state))
        conf_load();
    state = atomic_load(&conf_state);
    pthread_mutex_unlock(&conf_lock);
    return state;
}

bool ts_log_enabled(const char *file, TsLogLevel level)
{
    if (!(conf_get() & CONF_LOG) || !file)
        return false;
    size_t len;
    const char *name = pass_name(file, &len);
    pthread_mutex_lock(&conf_lock);
    const LogEntry *e = find_log(name, len);
    bool on = e && (int)level <= e->level;
    pthread_mutex_unlock(&conf_lock);
    return on;
}

const char *ts_log_level_name(TsLogLevel level)
{
    switch (level) {
    case TS_LOG_DUMP: return "DUMP";
    case TS_LOG_UPDATE: return "UPDATE";
    case TS_LOG_DEBUG: return "DEBUG";
    }
    return "?";
}

/* Writes every line of text with the prefix; a final newline ends the last line rather
 * than starting an empty one. The stream lock keeps a message's lines together. */
static void write_prefixed(const char *file, int line, TsLogLevel level, const char *text)
{
    const char *base = file;
    for (const char *p = file; *p; p++)
        if (*p == '/' || *p == '\\')
            base = p + 1;
    pthread_mutex_lock(&conf_lock);
    FILE *out = out_stream();
    pthread_mutex_unlock(&conf_lock);
    flockfile(out);
    while (*text) {
        const char *nl = strchr(text, '\n');
        size_t len = nl ? (size_t)(nl - text) : strlen(text);
        fprintf(out, "[%s %s:%03d] %.*s\n", ts_log_level_name(level), base, line,
                (int)len, text);
        text += len + (nl != NULL);
    }
    fflush(out);
    funlockfile(out);
}

void ts_log(const char *file, int line, TsLogLevel level, const char *fmt, ...)
{
    if (!ts_log_enabled(file, level))
        return;
    va_list ap;
    va_start(ap, fmt);
    char *text = NULL;
    int n = vasprintf(&text, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    write_prefixed(file, line, level, text);
    free(text);
}

void ts_log_graph(const char *file, int line, TsLogLevel level, const char *msg,
                  const TsGraph *g)
{
    if (!ts_log_enabled(file, level))
        return;
    char *graph = g ? ts_graph_to_string(g, true) : NULL;
    char *text = NULL;
    if (asprintf(&text, "%s\n%s", msg ? msg : "", graph ? graph : "<no graph>\n") >= 0) {
        write_prefixed(file, line, level, text);
        free(text);
    }
    free(graph);
}

bool ts_opt_limit_ok(const char *file)
{
    if (!(conf_get() & CONF_LIMIT) || !file)
        return true;
    size_t len;
    const char *name = pass_name(file, &len);
    bool ok = true;
    pthread_mutex_lock(&conf_lock);
    LimitEntry *e = find_limit(name, len);
    if (e) {
        ok = e->used < e->limit;
        if (ok)
            e->used++;
    }
    pthread_mutex_unlock(&conf_lock);
    return ok;
}

void ts_log_set_output(FILE *out)
{
    pthread_mutex_lock(&conf_lock);
    log_out = out;
    pthread_mutex_unlock(&conf_lock);
}

void ts_log_reload(void)
{
    pthread_mutex_lock(&conf_lock);
    conf_load();
    pthread_mutex_unlock(&conf_lock);
}

void ts_log_shutdown(void)
{
    pthread_mutex_lock(&conf_lock);
    conf_free();
    atomic_store(&conf_state, 0);
    pthread_mutex_unlock(&conf_lock);
}
