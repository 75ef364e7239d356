/* t/cuda_graph.c — CUDA graphs through the "cuda" allocator's TsCaptureOps (aten-cuda's
 * engine/graph.c), driven as the executor drives them: begin, the region's TorchScript run on
 * the static inputs, end, replays on new inputs, discard. A replay gives what a plain run
 * gives (a dense output with its strides, a strided one contiguous); the refusals (an
 * input that is not dense, an output that is an input, a mismatched replay, a capture that
 * syncs with the host) are errors, after which the thread runs normally and captures again;
 * replay and discard from another thread work. Skipped without a CUDA device.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tscript/plugin.h"
#include "tscript/tscript.h"

static const char settings[] = "plugins: [prim, aten-cpu, aten-cuda]\n";

static const char source[] =
    "import torch\n"
    "from typing import Tuple\n"
    "\n"
    "def available() -> bool:\n"
    "    return torch.cuda.is_available()\n"
    "\n"
    "def make(n0: int, n1: int, scale: float, shift: float) -> torch.Tensor:\n"
    "    x = torch.arange(n0 * n1, dtype=torch.float32) * scale + shift\n"
    "    return x.reshape([n0, n1]).cuda()\n"
    "\n"
    "def to_cpu(x: torch.Tensor) -> torch.Tensor:\n"
    "    return x.cpu()\n"
    "\n"
    "def first(x: torch.Tensor) -> torch.Tensor:\n"
    "    return x[0]\n"
    "\n"
    "def every_other(x: torch.Tensor) -> torch.Tensor:\n"
    "    return x[:, ::2]\n"
    "\n"
    "def region(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor)"
    " -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:\n"
    "    y = torch.relu(torch.mm(x, w) + b)\n"
    "    z = (x * 3.0 - 1.0)[:, ::2]\n"
    "    return y * 2.0, y.t(), z\n"
    "\n"
    "def syncs(x: torch.Tensor) -> torch.Tensor:\n"
    "    return (x + 1.0).cpu()\n"
    "\n"
    "def same(x: torch.Tensor) -> torch.Tensor:\n"
    "    return x[1:]\n";

enum { NOUT = 3 };

static TsScript *script;
static const TsCaptureOps *ops;

/* fn(args) with n tensor arguments; the result value (the caller's) or None on error. */
static TsValue call(const char *fn, size_t n, TsTensor *const *args, TsError *err)
{
    TsValue a[4], out = ts_none();
    TsMethod *m = ts_script_find_function(script, fn, err);
    for (size_t i = 0; i < n; i++) {
        ts_tensor_retain(args[i]);
        a[i] = ts_tensor_value(args[i]);
    }
    if (m && ts_method_call(m, a, n, &out, err))
        out = ts_none();
    for (size_t i = 0; i < n; i++)
        ts_value_release(a[i]);
    ts_method_free(m);
    return out;
}

/* Item i of v (or v itself when i < 0) as a tensor of the caller's, or NULL. */
static TsTensor *tensor_of(TsValue v, int i)
{
    TsError err = TS_ERROR_INIT;
    TsValue item = v;
    TsTensor *t = NULL;
    if ((i >= 0 && ts_value_item(v, (size_t)i, &item, &err)) ||
        ts_value_to_tensor(item, &t, &err)) {
        ts_error_clear(&err);
        return NULL;
    }
    ts_tensor_retain(t);
    return t;
}

static TsTensor *call1(const char *fn, size_t n, TsTensor *const *args)
{
    TsError err = TS_ERROR_INIT;
    TsValue v = call(fn, n, args, &err);
    TsTensor *t = tensor_of(v, -1);
    if (!t)
        diag("%s: %s", fn, err.msg ? err.msg : "not a tensor");
    ts_value_release(v);
    ts_error_clear(&err);
    return t;
}

/* A float32 tensor on the GPU of sizes n0 x n1 (n0 0: n1 alone), element k = k * scale +
 * shift. (Made on the cpu by the script: a tensor over the embedder's memory has an
 * allocator of the core's, which this test need not depend on.) */
static TsTensor *cuda_floats(int64_t n0, int64_t n1, float scale, float shift)
{
    TsError err = TS_ERROR_INIT;
    TsValue a[4] = { ts_int(n0 ? n0 : 1), ts_int(n1), ts_double(scale), ts_double(shift) }, v;
    TsMethod *m = ts_script_find_function(script, "make", &err);
    TsTensor *t = m && ts_method_call(m, a, 4, &v, &err) == 0 ? tensor_of(v, -1) : NULL;
    if (t && !n0) {
        TsTensor *row = t;
        TsValue r = call("first", 1, &row, &err);
        t = tensor_of(r, -1);
        ts_value_release(r);
        ts_tensor_release(row);
    }
    if (m && !t)
        diag("make: %s", err.msg ? err.msg : "?");
    if (m)
        ts_value_release(v);
    ts_method_free(m);
    ts_error_clear(&err);
    return t;
}

/* Whether a and b (on the GPU) hold the same numbers in the same logical order. */
static bool same_values(TsTensor *a, TsTensor *b)
{
    TsTensor *ha = a ? call1("to_cpu", 1, &a) : NULL, *hb = b ? call1("to_cpu", 1, &b) : NULL;
    bool same = ha && hb && ts_tensor_numel(ha) == ts_tensor_numel(hb);
    const float *pa = same ? ts_tensor_data(ha) : NULL, *pb = same ? ts_tensor_data(hb) : NULL;
    for (int64_t k = 0; same && k < ts_tensor_numel(ha); k++)
        same = fabsf(pa[k] - pb[k]) <= 1e-5f * (1.0f + fabsf(pb[k]));
    ts_tensor_release(ha);
    ts_tensor_release(hb);
    return same;
}

static bool same_strides(const TsTensor *a, const TsTensor *b)
{
    return a->dim == b->dim && !memcmp(a->strides, b->strides, (size_t)a->dim * sizeof(int64_t));
}

/* The region's three outputs of a plain run. */
static bool plain_run(TsTensor *const *in, TsTensor **out)
{
    TsError err = TS_ERROR_INIT;
    TsValue v = call("region", 3, in, &err);
    bool good = true;
    for (int j = 0; j < NOUT; j++)
        good &= (out[j] = tensor_of(v, j)) != NULL;
    if (!good)
        diag("region: %s", err.msg ? err.msg : "?");
    ts_value_release(v);
    ts_error_clear(&err);
    return good;
}

static void release_all(TsTensor **t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ts_tensor_release(t[i]);
        t[i] = NULL;
    }
}

typedef struct Job {
    TsCapture *c;
    TsTensor **in;
    TsTensor *out[NOUT];
    int rc;
} Job;

static void *replay_job(void *p)
{
    Job *j = p;
    TsError err = TS_ERROR_INIT;
    j->rc = ops->replay(j->c, 3, j->in, j->out, &err);
    ts_error_clear(&err);
    return NULL;
}

static void *discard_job(void *p)
{
    Job *j = p;
    ops->discard(j->c);
    return NULL;
}

/* Captures fn on x (not stable), expecting the capture to fail at the run or at end. */
static void failing_capture(const char *fn, TsTensor *x, bool stable, bool call_end,
                            const char *want)
{
    TsError err = TS_ERROR_INIT;
    TsTensor *st[1] = { NULL };
    TsCapture *c = ops->begin(1, &x, &stable, st, &err);
    ok(c != NULL, "%s: begin", fn);
    if (!c) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return;
    }
    TsValue v = call(fn, 1, st[0] ? st : &x, &err);
    TsTensor *out = tensor_of(v, -1);
    ts_error_clear(&err);
    if (call_end) {
        int rc = ops->end(c, out ? 1 : 0, &out, &err);
        ok(rc != 0 && err.msg && strstr(err.msg, want), "%s: end fails (%s)", fn,
           err.msg ? err.msg : "no error");
    }
    ts_error_clear(&err);
    ts_tensor_release(out);
    ts_value_release(v);
    ts_tensor_release(st[0]);
    ops->discard(c);
}

int main(void)
{
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = ts_runtime_open_settings(settings, strlen(settings), &err);
    script = rt ? ts_script_compile(rt, "capture.py", source, strlen(source), &err) : NULL;
    TsMethod *avail = script ? ts_script_find_function(script, "available", &err) : NULL;
    TsValue yes = ts_none();
    bool have = false;
    if (!avail || ts_method_call(avail, NULL, 0, &yes, &err) ||
        ts_value_to_bool(yes, &have, &err)) {
        printf("Bail out! %s\n", err.msg ? err.msg : "?");
        return 1;
    }
    ts_method_free(avail);
    if (!have) {
        printf("1..0 # SKIP no CUDA device\n");
        ts_script_free(script);
        ts_runtime_close(rt);
        return 0;
    }
    ts_runtime_set_optimize(rt, false);
    TsAllocator *alloc = ts_runtime_allocator(rt, TS_DEV_CUDA);
    ops = alloc ? alloc->capture : NULL;
    if (!ok(ops != NULL, "the cuda allocator can capture"))
        return done_testing();

    TsTensor *in[3] = { cuda_floats(4, 6, 0.25f, -2.0f), cuda_floats(6, 5, -0.125f, 1.5f),
                        cuda_floats(0, 5, 0.5f, -1.0f) };
    TsTensor *x2 = cuda_floats(4, 6, -0.5f, 3.0f), *other = cuda_floats(5, 6, 1.0f, 0.0f);
    TsTensor *want[NOUT] = { NULL }, *want2[NOUT] = { NULL }, *st[3] = { NULL };
    TsTensor *in2[3] = { x2, in[1], in[2] };
    if (!in[0] || !in[1] || !in[2] || !x2 || !other || !plain_run(in, want) ||
        !plain_run(in2, want2)) {
        printf("Bail out! no tensors on the GPU\n");
        return 1;
    }

    /* capture x (copied in), w and b (stable) */
    bool stable[3] = { false, true, true };
    TsCapture *c = ops->begin(3, in, stable, st, &err);
    if (!ok(c != NULL, "begin")) {
        diag("%s", err.msg);
        return done_testing();
    }
    ok(st[0] && !st[1] && !st[2] && st[0] != in[0] && same_strides(st[0], in[0]),
       "a static tensor for the input that is not stable, none for the stable ones");
    TsTensor *nested[1] = { NULL };
    TsCapture *c2 = ops->begin(1, in, stable, nested, &err);
    ok(!c2 && err.msg && strstr(err.msg, "already capturing"), "no second capture at once");
    ts_error_clear(&err);
    TsTensor *run_in[3] = { st[0], in[1], in[2] }, *captured[NOUT] = { NULL };
    ok(plain_run(run_in, captured), "the region runs while capturing");
    int rc = ops->end(c, NOUT, captured, &err);
    if (!ok(rc == 0, "end")) {
        diag("%s", err.msg);
        return done_testing();
    }
    release_all(captured, NOUT);

    TsTensor *got[NOUT] = { NULL }, *got2[NOUT] = { NULL };
    rc = ops->replay(c, 3, in, got, &err);
    ok(rc == 0, "replay");
    if (rc)
        diag("%s", err.msg);
    ts_error_clear(&err);
    for (int j = 0; j < NOUT && !rc; j++)
        ok(same_values(got[j], want[j]), "replay: output %d as a plain run", j);
    ok(!rc && same_strides(got[1], want[1]), "a dense output keeps its strides (a transpose)");
    ok(!rc && ts_tensor_is_contiguous(got[2]), "a strided output comes back contiguous");
    rc = ops->replay(c, 3, in2, got2, &err);
    ok(rc == 0, "replay on new values");
    for (int j = 0; j < NOUT && !rc; j++)
        ok(same_values(got2[j], want2[j]), "replay 2: output %d as a plain run", j);
    ok(!rc && same_values(got[0], want[0]), "the first replay's outputs are the caller's");
    release_all(got, NOUT);
    release_all(got2, NOUT);

    TsTensor *bad[3] = { other, in[1], in[2] };
    rc = ops->replay(c, 3, bad, got, &err);
    ok(rc != 0 && err.msg && strstr(err.msg, "not as captured"),
       "replay refuses another shape (%s)", err.msg ? err.msg : "");
    ts_error_clear(&err);
    TsTensor *w_elsewhere = cuda_floats(6, 5, 1.0f, 0.0f);
    TsTensor *moved[3] = { in[0], w_elsewhere, in[2] };   /* a stable input elsewhere */
    rc = ops->replay(c, 3, moved, got, &err);
    ok(rc != 0 && err.msg && strstr(err.msg, "address"), "replay refuses a stable input moved (%s)",
       err.msg ? err.msg : "");
    ts_error_clear(&err);
    ts_tensor_release(w_elsewhere);

    Job job = { c, in2, { NULL }, -1 };
    pthread_t th;
    pthread_create(&th, NULL, replay_job, &job);
    pthread_join(th, NULL);
    ok(job.rc == 0 && same_values(job.out[0], want2[0]) && same_values(job.out[2], want2[2]),
       "replay on another thread");
    release_all(job.out, NOUT);
    rc = ops->replay(c, 3, in, got, &err);
    ok(rc == 0 && same_values(got[0], want[0]), "... and back on this one");
    release_all(got, NOUT);
    ts_error_clear(&err);
    ts_tensor_release(st[0]);
    pthread_create(&th, NULL, discard_job, &job);
    pthread_join(th, NULL);
    ok(1, "discard on another thread");

    /* refusals and failed captures leave the thread working */
    TsTensor *strided = call1("every_other", 1, in);
    bool not_stable = false;
    c = strided ? ops->begin(1, &strided, &not_stable, st, &err) : NULL;
    ok(!c && err.msg && strstr(err.msg, "not dense"), "begin refuses an input not dense (%s)",
       err.msg ? err.msg : "");
    ts_error_clear(&err);
    ts_tensor_release(strided);
    failing_capture("syncs", in[0], false, true, "CUDA graph capture failed");
    failing_capture("syncs", in[0], false, false, "");
    failing_capture("same", in[0], true, true, "is an input or a view of one");
    failing_capture("same", in[0], false, true, "is an input or a view of one");
    TsTensor *after[NOUT] = { NULL };
    ok(plain_run(in, after) && same_values(after[0], want[0]) &&
       same_values(after[2], want[2]), "a plain run after the failures");
    release_all(after, NOUT);

    /* many captures, each replayed and discarded: no state left behind */
    int good = 0;
    for (int k = 0; k < 50; k++) {
        TsTensor *s[3] = { NULL }, *o[NOUT] = { NULL }, *r[NOUT] = { NULL };
        TsCapture *cc = ops->begin(3, in, stable, s, &err);
        TsTensor *ri[3] = { s[0], in[1], in[2] };
        if (cc && plain_run(ri, o) && ops->end(cc, NOUT, o, &err) == 0 &&
            ops->replay(cc, 3, in2, r, &err) == 0 && same_values(r[1], want2[1]))
            good++;
        release_all(o, NOUT);
        release_all(r, NOUT);
        ts_tensor_release(s[0]);
        ops->discard(cc);
        ts_error_clear(&err);
    }
    is_int(good, 50, "50 captures in a row");

    release_all(want, NOUT);
    release_all(want2, NOUT);
    release_all(in, 3);
    ts_tensor_release(x2);
    ts_tensor_release(other);
    ts_script_free(script);
    ts_runtime_close(rt);
    return done_testing();
}
