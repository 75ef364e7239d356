/* pyprint_archive.c — saving modules (core/serialize/save.c) against PyTorch's own saves.
 *
 * Every module case of the conformance suite is an archive torch.jit.save wrote. Each is
 * loaded (core/module.c) and saved again by tscript, and:
 *   - every code file of the saved archive is what PyTorch printed, byte for byte, with no
 *     file missing or extra (the printer on modules, submodules, numbered attributes, Final
 *     constants, interfaces, enums and CONSTANTS, as PyTorch writes them), and the archive
 *     claims the version PyTorch's did;
 *   - the saved archive loads in tscript, and its main prints what the original's prints.
 * (t/pyprint_torch.py loads the saved archives in PyTorch.)
 *
 * `pyprint_archive.t --save IN.pt OUT.pt` only saves (for t/pyprint_torch.py).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "module.h"
#include "runtime.h"
#include "sched/interp.h"
#include "serialize/save.h"
#include "serialize/zip.h"
#include "pyprint_util.h"
#include "tap.h"

#ifndef TS_TEST_SRCDIR
#define TS_TEST_SRCDIR "."
#endif

static TsRuntime *rt;

/* The bytes of entry (top folder + name), malloc'd and NUL-terminated, or NULL. */
static char *entry_text(TsZip *z, const char *name, size_t *len)
{
    char full[1024];
    snprintf(full, sizeof full, "%s%s", ts_zip_prefix(z), name);
    long i = ts_zip_find(z, full);
    const void *data;
    void *owned = NULL;
    size_t n;
    TsError err = TS_ERROR_INIT;
    if (i < 0 || ts_zip_read(z, (size_t)i, true, &data, &n, &owned, &err)) {
        ts_error_clear(&err);
        return NULL;
    }
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, data, n);
        s[n] = '\0';
    }
    free(owned);
    if (len)
        *len = n;
    return s;
}

static bool is_code(const char *entry)
{
    size_t l = strlen(entry);
    return strncmp(entry, "code/", 5) == 0 && l > 3 && strcmp(entry + l - 3, ".py") == 0;
}

/* Every code file of saved is the original's, and there are as many. */
static bool same_code(TsZip *orig, TsZip *saved)
{
    bool same = true;
    size_t theirs = 0, ours = 0;
    for (size_t i = 0; i < ts_zip_count(orig); i++)
        theirs += is_code(ts_zip_entry(orig, i)->name + strlen(ts_zip_prefix(orig)));
    for (size_t i = 0; i < ts_zip_count(saved); i++) {
        const char *e = ts_zip_entry(saved, i)->name + strlen(ts_zip_prefix(saved));
        if (!is_code(e))
            continue;
        ours++;
        char *want = entry_text(orig, e, NULL), *got = entry_text(saved, e, NULL);
        if (!want || !got || strcmp(want, got) != 0) {
            same = false;
            diag("%s: %s", e, want ? "differs" : "PyTorch wrote no such file");
            diag("PyTorch:\n%s", want ? want : "");
            diag("tscript:\n%s", got ? got : "");
        }
        free(want);
        free(got);
    }
    if (theirs != ours) {
        same = false;
        diag("PyTorch wrote %zu code files, tscript %zu", theirs, ours);
    }
    return same;
}

/* Does a class of the archive define __setstate__? */
static bool has_setstate(TsZip *z)
{
    bool found = false;
    for (size_t i = 0; i < ts_zip_count(z) && !found; i++) {
        const char *e = ts_zip_entry(z, i)->name + strlen(ts_zip_prefix(z));
        char *text = is_code(e) ? entry_text(z, e, NULL) : NULL;
        found = text && strstr(text, "def __setstate__(");
        free(text);
    }
    return found;
}

static long version_of(TsZip *z)
{
    char *v = entry_text(z, ".data/version", NULL);
    if (!v)
        v = entry_text(z, "version", NULL);
    long n = v ? strtol(v, NULL, 10) : -1;
    free(v);
    return n;
}

/* What main prints, captured, then its error's last line. */
static char *run_main(TsModule *m)
{
    TsError err = TS_ERROR_INIT;
    TsFunction *f = ts_module_method(m, "main", &err);
    fflush(stdout);
    FILE *tmp = tmpfile();
    int saved = dup(STDOUT_FILENO);
    if (!tmp || saved < 0 || dup2(fileno(tmp), STDOUT_FILENO) < 0) {
        if (tmp)
            fclose(tmp);
        if (saved >= 0)
            close(saved);
        return NULL;
    }
    if (f) {
        TsValue self = ts_module_root(m), r;
        ts_value_retain(self);
        if (ts_run(rt, ts_module_unit(m), f, &self, 1, &r, &err) == 0)
            ts_value_release(r);
    }
    if (err.msg) {   /* the exception, not the traceback (a saved archive has no .debug_pkl) */
        size_t n = strlen(err.msg);
        while (n && err.msg[n - 1] == '\n')
            n--;
        size_t start = n;
        while (start && err.msg[start - 1] != '\n')
            start--;
        printf("error: %.*s\n", (int)(n - start), err.msg + start);
    }
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    long n = ftell(tmp);
    char *out = n >= 0 ? calloc((size_t)n + 1, 1) : NULL;
    rewind(tmp);
    if (out && fread(out, 1, (size_t)n, tmp) != (size_t)n)
        out[0] = '\0';
    fclose(tmp);
    ts_error_clear(&err);
    return out;
}

static void check_archive(const char *dir, const char *name, const char *tmpdir)
{
    char path[1024], out[1024];
    snprintf(path, sizeof path, "%.900s/%.100s", dir, name);
    snprintf(out, sizeof out, "%.900s/%.100s", tmpdir, name);
    TsError err = TS_ERROR_INIT;
    TsModule *m = ts_module_load(rt, path, &err);
    bool saved = m && ts_save_module(rt, m, out, &err) == 0;
    if (!check(saved, "%s: loaded and saved", name)) {
        diag("%s", err.msg ? err.msg : "?");
        check(0, "%s: every code file is what PyTorch printed", name);
        check(0, "%s: the saved archive runs main as the original", name);
        ts_module_free(m);
        ts_error_clear(&err);
        return;
    }
    TsZip *orig = ts_zip_open_file(path, &err), *copy = ts_zip_open_file(out, &err);
    bool same = orig && copy && same_code(orig, copy);
    if (orig && copy && version_of(orig) != version_of(copy)) {
        same = false;
        diag("version %ld, PyTorch wrote %ld", version_of(copy), version_of(orig));
    }
    check(same, "%s: every code file is what PyTorch printed", name);
    TsModule *m2 = ts_module_load(rt, out, &err);
    char *want = run_main(m), *got = m2 ? run_main(m2) : NULL;
    if (orig && has_setstate(orig)) {   /* each load runs __setstate__ on what it reads */
        ok(1, "%s: the saved archive runs main as the original # SKIP __setstate__ changes "
           "the state at every load (t/pyprint_torch.py compares with PyTorch's own save)",
           name);
    } else if (!check(want && got && strcmp(want, got) == 0,
                      "%s: the saved archive runs main as the original", name)) {
        diag("%s", err.msg ? err.msg : "");
        diag("original:\n%s", want ? want : "");
        diag("saved:\n%s", got ? got : "");
    }
    free(want);
    free(got);
    ts_module_free(m2);
    ts_module_free(m);
    if (orig)
        ts_zip_release(orig);
    if (copy)
        ts_zip_release(copy);
    ts_error_clear(&err);
}

/* Each archive in a process of its own: class types are global to a process, and the
 * archives all define __torch__.case.Model, which a second load in one process would
 * mangle (__torch__.case.___torch_mangle_1.Model), as it must. */
enum { CHECKS = 3 };

static void check_isolated(const char *dir, const char *name, const char *tmpdir)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        TsError err = TS_ERROR_INIT;
        if ((rt = ts_runtime_open(NULL, &err))) {
            check_archive(dir, name, tmpdir);
            ts_runtime_close(rt);
        } else {
            for (int i = 0; i < CHECKS; i++)
                ok(0, "%s: the runtime opens: %s", name, err.msg);
        }
        fflush(stdout);
        _exit(tap_failed);
    }
    int status = 0;
    bool ran = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status);
    tap_n += CHECKS;
    tap_failed += ran ? WEXITSTATUS(status) : CHECKS;
    if (!ran)
        printf("# %s: the check did not finish (status %d)\n", name, status);
}

static int save_only(const char *in, const char *out)
{
    TsError err = TS_ERROR_INIT;
    rt = ts_runtime_open(NULL, &err);
    TsModule *m = rt ? ts_module_load(rt, in, &err) : NULL;
    int rc = m && ts_save_module(rt, m, out, &err) == 0 ? 0 : 1;
    if (rc)
        fprintf(stderr, "%s\n", err.msg ? err.msg : "?");
    ts_module_free(m);
    if (rt)
        ts_runtime_close(rt);
    ts_error_clear(&err);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--save") == 0)
        return save_only(argv[2], argv[3]);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/../shared/conformance/cases/modules", TS_TEST_SRCDIR);
    DIR *d = opendir(dir);
    if (!d) {
        printf("1..0 # SKIP no conformance suite at %s\n", dir);
        return 0;
    }
    char tmpdir[] = "/tmp/pyprint_archive.XXXXXX";
    if (!mkdtemp(tmpdir)) {
        closedir(d);
        printf("1..0 # SKIP no temporary directory\n");
        return 0;
    }
    load_todo(TS_TEST_SRCDIR);
    char *names[256];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256) {
        size_t l = strlen(e->d_name);
        if (l > 3 && strcmp(e->d_name + l - 3, ".pt") == 0)
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    for (size_t i = 0; i < n; i++)
        for (size_t k = i + 1; k < n; k++)
            if (strcmp(names[k], names[i]) < 0) {
                char *t = names[i];
                names[i] = names[k];
                names[k] = t;
            }
    for (size_t i = 0; i < n; i++) {
        check_isolated(dir, names[i], tmpdir);
        char path[1100];
        snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
        unlink(path);
        free(names[i]);
    }
    rmdir(tmpdir);
    free(todo_text);
    return done_testing();
}
