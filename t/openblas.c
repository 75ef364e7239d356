/* openblas.c — aten-cpu loads OpenBLAS on the first matrix product (plugins/aten-cpu/
 * openblas.c), not at startup.
 *
 * In a child process: opening the runtime and adding tensors leave OpenBLAS unloaded; the
 * first mm loads it and computes. In this process, with $TSCRIPT_OPENBLAS naming a library
 * that does not exist: float products fail with an error naming the library and dlopen's
 * reason (the first and every later one), integer products (no BLAS) still work, and
 * nothing crashes.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
    test_missing();
    return done_testing();
}
