/* openblas.c — aten-cpu loads OpenBLAS on the first matrix product (plugins/aten-cpu/
 * openblas.c), not at startup, and chooses its core type then.
 *
 * In a child process: opening the runtime and adding tensors leave OpenBLAS unloaded; the
 * first mm loads it and computes. In more children, with TSCRIPT_TEST_BLAS_CORE=Prescott
 * (the library taken to have picked Prescott, so that aten-cpu loads it again on a better
 * core type): products compute, OPENBLAS_CORETYPE is as it was before (unset, or the
 * user's value, which then wins), and a library the process had loaded before aten-cpu is
 * kept as it is. In this process, with $TSCRIPT_OPENBLAS naming a library that does not
 * exist: float products fail with an error naming the library and dlopen's reason (the
 * first and every later one), so does tscript::backend_info, integer products (no BLAS)
 * still work, and nothing crashes. (t/openblas_core.sh tests the choice through `tscript
 * info --backend`.)
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"

#include "kernel.h"
#include "tensor_util.h"

static bool openblas_mapped(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[1024];
    bool found = false;
    while (f && !found && fgets(line, sizeof line, f))
        found = strstr(line, "libopenblas") != NULL;
    if (f)
        fclose(f);
    return found;
}

/* The child's checks as exit-status bits (0: all passed). */
static int lazy_child(void)
{
    int bad = 0;
    TsError err = TS_ERROR_INIT;
    kt_rt = ts_runtime_open(NULL, &err);      /* quietly: the parent prints the TAP */
    ts_error_clear(&err);
    if (!kt_rt)
        return 0x80;
    TsTensor *s = call("aten::add", "Tensor", 3, (TsValue[]){ tv(T(TS_FLOAT32, S(2), 1, 2)),
                                                              tv(T(TS_FLOAT32, S(2), 3, 4)),
                                                              ts_int(1) });
    if (!s || openblas_mapped())
        bad |= 1;
    if (s)
        ts_tensor_release(s);
    TsTensor *p = call("aten::mm", "", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(1, 2), 1, 2)),
                                                       tv(T(TS_FLOAT32, S(2, 1), 3, 4)) });
    if (!p || ((float *)ts_tensor_data(p))[0] != 11.0f)
        bad |= 2;
    if (!openblas_mapped())
        bad |= 4;
    if (p)
        ts_tensor_release(p);
    ts_runtime_close(kt_rt);
    return bad;
}

static void test_lazy(void)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0)
        exit(lazy_child());      /* exit, not _exit: OpenBLAS joins its threads */
    int status = -1;
    if (pid > 0)
        waitpid(pid, &status, 0);
    int bits = WIFEXITED(status) ? WEXITSTATUS(status) : 0xff;
    ok(!(bits & 0x80), "child: the runtime opens");
    ok(!(bits & 1), "opening the runtime and adding tensors leave OpenBLAS unloaded");
    ok(!(bits & 2), "the first mm computes");
    ok(!(bits & 4), "... and OpenBLAS is loaded then");
}

/* Runs child() in a child process; its exit status: 0 when every check passed. */
static int in_child(int (*child)(const char *, bool), const char *coretype, bool preload)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0)
        exit(child(coretype, preload));
    int status = -1;
    if (pid > 0)
        waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 0xff;
}

static TsValue cpu_device(void) { return ts_device((TsDevice){ TS_DEV_CPU, -1 }); }

/* The backend's description (malloc'd), or NULL. */
static char *backend_info(void)
{
    TsError err = TS_ERROR_INIT;
    TsValue r;
    const char *text;
    size_t len;
    char *copy = NULL;
    TsValue dev[1] = { cpu_device() };
    if (kt_call("tscript::backend_info", "", "cpu", 1, dev, &r, &err) == 0 &&
        ts_value_to_str(r, &text, &len, &err) == 0)
        copy = strndup(text, len);
    ts_value_release(r);
    ts_error_clear(&err);
    return copy;
}

/* The child's checks as exit-status bits: 1 a product wrong, 2 OPENBLAS_CORETYPE changed,
 * 4 the description lacks the choice expected. */
static int choice_child(const char *coretype, bool preload)
{
    if (coretype)
        setenv("OPENBLAS_CORETYPE", coretype, 1);
    else
        unsetenv("OPENBLAS_CORETYPE");
    setenv("TSCRIPT_TEST_BLAS_CORE", "Prescott", 1);
    if (preload && !dlopen(TS_OPENBLAS_SONAME, RTLD_NOW | RTLD_LOCAL))
        return 0x80;
    TsError err = TS_ERROR_INIT;
    kt_rt = ts_runtime_open(NULL, &err);
    ts_error_clear(&err);
    if (!kt_rt)
        return 0x80;
    int bad = 0;
    TsTensor *p = call("aten::mm", "", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(1, 3), 1, 2, 3)),
                                                       tv(T(TS_FLOAT32, S(3, 1), 4, 5, 6)) });
    if (!p || ((float *)ts_tensor_data(p))[0] != 32.0f)
        bad |= 1;
    if (p)
        ts_tensor_release(p);
    const char *now = getenv("OPENBLAS_CORETYPE");
    if (coretype ? !now || strcmp(now, coretype) != 0 : now != NULL)
        bad |= 2;
    char *info = backend_info();
    const char *want = coretype ? "choice   OPENBLAS_CORETYPE=Prescott in the environment"
                       : !__builtin_cpu_supports("sse4.2")
                           ? "the best core type this CPU runs"
                       : preload ? "the process had loaded the library already"
                       : info && !strstr(info, "DYNAMIC_ARCH")
                           ? "not a DYNAMIC_ARCH build: its core type is fixed"
                           : "upgraded from Prescott (TSCRIPT_TEST_BLAS_CORE)";
    if (!info || !strstr(info, want))
        bad |= 4;
    free(info);
    ts_runtime_close(kt_rt);
    return bad;
}

static void test_choice(void)
{
    int bits = in_child(choice_child, NULL, false);
    ok(!(bits & 0x80), "child: the runtime opens");
    ok(!(bits & 1), "a product computes on the core type aten-cpu chose");
    ok(!(bits & 2), "OPENBLAS_CORETYPE, set around the forced load, is unset again");
    ok(!(bits & 4), "the description says Prescott was upgraded");
    bits = in_child(choice_child, "Prescott", false);
    ok(!(bits & 1), "OPENBLAS_CORETYPE set: a product computes");
    ok(!(bits & 2), "... OPENBLAS_CORETYPE keeps the user's value");
    ok(!(bits & 4), "... and wins: the description says so");
    bits = in_child(choice_child, NULL, true);
    ok(!(bits & 0x80), "a child that loaded OpenBLAS itself first");
    ok(!(bits & 1), "... computes");
    ok(!(bits & 4), "... on the library as the process loaded it, saying why");
}

static void test_missing(void)
{
    setenv("TSCRIPT_OPENBLAS", "libtscript-no-such-blas.so.0", 1);
    if (!kt_open())
        return;
    const char *msg = "matrix products need OpenBLAS, which could not be loaded: "
                      "libtscript-no-such-blas.so.0: cannot open shared object file: No such "
                      "file or directory (Debian: apt-get install libopenblas0)";
    for (int i = 0; i < 2; i++)
        fails("aten::mm", "", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(2, 2), 1, 2, 3, 4)),
                                              tv(T(TS_FLOAT32, S(2, 2), 1, 0, 0, 1)) },
              msg, i ? "a later float mm without OpenBLAS" : "the first float mm without OpenBLAS");
    TsError err = TS_ERROR_INIT;
    TsValue r, a[2] = { tv(T(TS_FLOAT64, S(3), 1, 2, 3)), tv(T(TS_FLOAT64, S(3), 1, 1, 1)) };
    ok(kt_call("aten::matmul", "", "cpu", 2, a, &r, &err) == TS_ERR_RUNTIME,
       "matmul (through blas.c) fails the same");
    ts_error_clear(&err);
    ok(kt_call("tscript::backend_info", "", "cpu", 1, (TsValue[]){ cpu_device() }, &r, &err) ==
           TS_ERR_RUNTIME && strstr(err.msg, "libtscript-no-such-blas.so.0: cannot open"),
       "tscript::backend_info fails the same");
    ts_error_clear(&err);
    CHECK(call("aten::mm", "", 2, (TsValue[]){ tv(T(TS_INT64, S(1, 2), 2, 3)),
                                               tv(T(TS_INT64, S(2, 1), 4, 5)) }),
          TS_INT64, S(1, 1), "integer mm needs no BLAS", 23);
    ok(!openblas_mapped(), "no OpenBLAS was loaded");
    ts_runtime_close(kt_rt);
    unsetenv("TSCRIPT_OPENBLAS");
}

int main(void)
{
    test_lazy();
    test_choice();
    test_missing();
    return done_testing();
}
