/* cpu_parallel.c — aten-cpu's elementwise engine split over threads (elementwise.c with
 * core/sched/parallel.c) gives the same bytes as on one thread.
 *
 * Each case below builds its inputs and runs ops big enough to be split (sizes around two
 * and a few grains): contiguous, broadcast, transposed and stepped inputs, in-place ops
 * through a transposed view, out= with a resize, type promotion, where, float64, integer
 * division, and reductions. Each runs with 1, 2, 3 and 4 threads and the results must be
 * identical to the single-threaded ones; an integer division by zero inside one chunk fails
 * the call with PyTorch's error for every thread count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/compile.h"
#include "runtime.h"
#include "sched/interp.h"
#include "sched/parallel.h"
#include "frontend/source.h"
#include "tap.h"

static const char program[] =
    "import torch\n"
    "from typing import List\n"
    "\n"
    "\n"
    "def wave(n: int) -> torch.Tensor:\n"
    "    return torch.sin(torch.arange(n, dtype=torch.float32) * 0.37)\n"
    "\n"
    "\n"
    "def contiguous(n: int) -> torch.Tensor:\n"
    "    a, b = wave(n), wave(n + 3)[3:]\n"
    "    return a + b * 2.5\n"
    "\n"
    "\n"
    "def unary(n: int) -> torch.Tensor:\n"
    "    a = wave(n)\n"
    "    return torch.cat([torch.tanh(a), torch.sigmoid(a), torch.exp(a)])\n"
    "\n"
    "\n"
    "def broadcast(n: int) -> torch.Tensor:\n"
    "    rows = n // 256 + 1\n"
    "    col = wave(rows).reshape(rows, 1)\n"
    "    row = wave(256).reshape(1, 256)\n"
    "    return (col * row + wave(256)).contiguous()\n"
    "\n"
    "\n"
    "def transposed(n: int) -> torch.Tensor:\n"
    "    rows = n // 128 + 1\n"
    "    a = wave(rows * 128).reshape(rows, 128)\n"
    "    b = wave(rows * 128 + 1)[1:].reshape(128, rows)\n"
    "    return (a.t() * 3.0 + b).contiguous()\n"
    "\n"
    "\n"
    "def stepped(n: int) -> torch.Tensor:\n"
    "    a = wave(2 * n)\n"
    "    return a[::2] - a[1::2]\n"
    "\n"
    "\n"
    "def inplace(n: int) -> torch.Tensor:\n"
    "    rows = n // 64 + 1\n"
    "    x = wave(rows * 64).reshape(rows, 64)\n"
    "    x.t().mul_(2.0)\n"
    "    x.add_(wave(64))\n"
    "    return x\n"
    "\n"
    "\n"
    "def out_resized(n: int) -> torch.Tensor:\n"
    "    o = torch.empty(3)\n"
    "    torch.mul(wave(n), wave(n + 1)[1:], out=o)\n"
    "    return o\n"
    "\n"
    "\n"
    "def promoted(n: int) -> torch.Tensor:\n"
    "    i = torch.arange(n) % 7\n"
    "    return i * 0.5 + i.to(torch.float64)\n"
    "\n"
    "\n"
    "def where(n: int) -> torch.Tensor:\n"
    "    a = wave(n)\n"
    "    return torch.where(a > 0.0, a, -a * 3.0)\n"
    "\n"
    "\n"
    "def doubles(n: int) -> torch.Tensor:\n"
    "    a = wave(n).to(torch.float64)\n"
    "    return a * a - a / 3.0\n"
    "\n"
    "\n"
    "def int_div(n: int) -> torch.Tensor:\n"
    "    i = torch.arange(n) + 1\n"
    "    return torch.div(i * 7, i % 5 + 1, rounding_mode='floor')\n"
    "\n"
    "\n"
    "def int_div_zero(n: int) -> torch.Tensor:\n"
    "    i = torch.arange(n)\n"
    "    d = torch.ones(n, dtype=torch.int64)\n"
    "    d[n - 10] = 0\n"
    "    return torch.div(i, d, rounding_mode='floor')\n"
    "\n"
    "\n"
    "def sums(n: int) -> torch.Tensor:\n"
    "    rows = n // 128 + 1\n"
    "    a = wave(rows * 128).reshape(rows, 128)\n"
    "    return torch.cat([a.sum().reshape(1), a.sum(0), a.sum(1), a.t().sum(1), a.mean(1)])\n"
    "\n";

static const char *const cases[] = { "contiguous", "unary", "broadcast", "transposed",
                                      "stepped", "inplace", "out_resized", "promoted", "where",
                                      "doubles", "int_div", "sums" };
/* around two grains (32768 elements) and a few */
static const int64_t sizes[] = { 65535, 65536, 65537, 200003 };

static TsRuntime *rt;
static TsCompUnit *unit;

/* Runs fn(n) on threads threads; the result tensor (NULL with err set on failure). */
static TsTensor *run(const char *fn, int64_t n, int threads, TsError *err)
{
    char name[64];
    snprintf(name, sizeof name, "__torch__.%s", fn);
    ts_parallel_set_num_threads(threads);
    TsValue arg = ts_int(n), out = ts_none();
    if (ts_run(rt, unit, ts_unit_find(unit, name), &arg, 1, &out, err))
        return NULL;
    if (out.tag != TS_TAG_TENSOR) {
        ts_value_release(out);
        ts_error_set(err, TS_ERR_RUNTIME, "%s returned no tensor", fn);
        return NULL;
    }
    return (TsTensor *)out.u.p;
}

static int same(const TsTensor *a, const TsTensor *b)
{
    if (a->dtype != b->dtype || a->dim != b->dim || !ts_tensor_is_contiguous(a) ||
        !ts_tensor_is_contiguous(b))
        return 0;
    for (int d = 0; d < a->dim; d++)
        if (a->sizes[d] != b->sizes[d])
            return 0;
    size_t bytes = (size_t)ts_tensor_numel(a) * ts_dtype_size(a->dtype);
    return memcmp(ts_tensor_data(a), ts_tensor_data(b), bytes) == 0;
}

static void test_case(const char *fn)
{
    int all = 1;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        TsError err = TS_ERROR_INIT;
        TsTensor *want = run(fn, sizes[k], 1, &err);
        if (!want) {
            diag("%s(%lld): %s", fn, (long long)sizes[k], err.msg);
            ts_error_clear(&err);
            all = 0;
            continue;
        }
        for (int threads = 2; threads <= 4; threads++) {
            TsTensor *got = run(fn, sizes[k], threads, &err);
            if (!got || !same(got, want)) {
                diag("%s(%lld) on %d threads: %s", fn, (long long)sizes[k], threads,
                     got ? "differs" : err.msg);
                all = 0;
            }
            ts_error_clear(&err);
            if (got)
                ts_tensor_release(got);
        }
        ts_tensor_release(want);
    }
    ok(all, "%s: the same result on 1, 2, 3 and 4 threads", fn);
}

static void test_error_in_chunk(void)
{
    for (int threads = 1; threads <= 4; threads++) {
        TsError err = TS_ERROR_INIT;
        TsTensor *t = run("int_div_zero", 200003, threads, &err);
        ok(!t && err.code != TS_OK && err.msg && strstr(err.msg, "ZeroDivisionError"),
           "threads=%d: a division by zero in one chunk fails the op", threads);
        if (t)
            ts_tensor_release(t);
        ts_error_clear(&err);
    }
}

int main(void)
{
    TsError err = TS_ERROR_INIT;
    rt = ts_runtime_open(NULL, &err);
    TsSource *src = rt ? ts_source_new("cpu_parallel.py", program, strlen(program), &err) : NULL;
    unit = src ? ts_compile_source(ts_runtime_optable(rt), src, NULL, &err) : NULL;
    if (!ok(unit != NULL, "the cases compile")) {
        diag("%s", err.msg);
        return done_testing();
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        test_case(cases[i]);
    test_error_in_chunk();
    ts_unit_free(unit);
    ts_source_release(src);
    ts_runtime_close(rt);
    return done_testing();
}
