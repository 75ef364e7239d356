/* pyprint_util.h — what the python printer's tests share: compiling an archive's methods
 * when the printer asks for them, and the known failures (t/pyprint.todo).
 *
 * t/pyprint.t and t/pyprint_archive.t check programs and archives that other parts of
 * tscript do not handle yet. Each such test is listed in t/pyprint.todo ("TEST<tab>REASON",
 * the reason naming what must change). check() reports a listed failure as a TODO, which
 * does not fail the run, and a listed test that passes as an unexpected pass, which does:
 * the list shrinks as tscript improves and never hides a regression.
 */
#ifndef TS_PYPRINT_UTIL_H
#define TS_PYPRINT_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/emit.h"
#include "tap.h"

/* A unit's resolver for an importer c: methods compile when asked for (by the printer, or a
 * kernel calling one), as a loader of archives compiles them. */
__attribute__((unused))
static int import_resolve(void *ctx, TsCompUnit *u, const TsType *cls, const char *name,
                          TsFunction **out, TsError *err)
{
    (void)u;
    TsCompiler *c = ctx;
    TsClassInfo *ci = ts_compiler_class_of_type(c, cls);
    TsDefInfo *d = ci ? ts_class_method(ci, name) : NULL;
    *out = d ? ts_compiler_function(c, d, d->def->range, err) : NULL;
    return d && !*out ? -1 : 0;
}

static char *todo_text;

static void load_todo(const char *srcdir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/t/pyprint.todo", srcdir);
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    todo_text = n >= 0 ? calloc((size_t)n + 1, 1) : NULL;
    if (todo_text && fread(todo_text, 1, (size_t)n, f) != (size_t)n)
        todo_text[0] = '\0';
    fclose(f);
}

/* The reason test is listed for (the rest of its line, in buf), or NULL. */
static const char *todo_reason(const char *test, char *buf, size_t size)
{
    size_t n = strlen(test);
    for (const char *l = todo_text; l && *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0)) {
        if (strncmp(l, test, n) != 0 || l[n] != '\t')
            continue;
        const char *r = l + n + 1;
        snprintf(buf, size, "%.*s", (int)strcspn(r, "\n"), r);
        return buf;
    }
    return NULL;
}

/* ok(), with t/pyprint.todo's TODOs. */
__attribute__((format(printf, 2, 3), unused))
static int check(int pass, const char *fmt, ...)
{
    char reason[512], what[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (!todo_reason(what, reason, sizeof reason))
        return ok(pass, "%s", what);
    printf("%sok %d - %s # TODO %s\n", pass ? "" : "not ", ++tap_n, what, reason);
    if (pass) {
        tap_failed++;
        diag("it passes: remove it from t/pyprint.todo");
    }
    fflush(stdout);
    return pass;
}

#endif
