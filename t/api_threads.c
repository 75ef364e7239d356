/* t/api_threads.c — the embedding API's promise about threads (tscript.h): one runtime,
 * one script and one module shared by many threads, each thread calling the same methods
 * at once with its own tensors over its own memory, and all of them appending to one list
 * they share (marked with ts_value_share, as the header says an embedder must).
 *
 * The module's forward is found by one thread and called by all (and found again by every
 * thread at once); the submodule method it calls (self.fc's forward) compiles on its first
 * call, which all threads make at once (the module serializes compiles). Built with --enable-tsan, ThreadSanitizer must report
 * nothing; in the other builds it checks every result.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tscript/tscript.h"

enum { THREADS = 8, ROUNDS = 20 };

static const char source[] =
    "import torch\n"
    "from typing import List\n"
    "\n"
    "def affine(x: torch.Tensor, k: float, b: float) -> torch.Tensor:\n"
    "    return x * k + b\n"
    "\n"
    "def collect(seen: List[int], i: int) -> int:\n"
    "    seen.append(i)\n"
    "    return len(seen)\n";

static TsScript *script;
static TsMethod *affine, *collect, *forward;
static TsModule *model;
static TsValue seen;

typedef struct Job {
    int id;
    int failures;
} Job;

static void *work(void *arg)
{
    Job *job = arg;
    TsError err = TS_ERROR_INIT;
    TsMethod *fwd2 = ts_module_find_method(model, "forward", &err);  /* every thread at once */
    if (!fwd2)
        job->failures++;
    for (int r = 0; r < ROUNDS; r++) {
        float buf[4] = { (float)job->id, (float)r, 1, 2 };
        int64_t sizes[1] = { 4 };
        TsValue args[3] = { ts_tensor_value(ts_tensor_from_blob(buf, TS_FLOAT32, 1, sizes,
                                                                NULL, NULL, NULL, &err)),
                            ts_double(2), ts_double(job->id) };
        TsValue out;
        TsTensor *y = NULL;
        if (ts_method_call(affine, args, 3, &out, &err) || ts_value_to_tensor(out, &y, &err)) {
            job->failures++;
        } else {
            const float *p = ts_tensor_data(y);
            for (int i = 0; i < 4; i++)
                job->failures += p[i] != buf[i] * 2 + (float)job->id;
        }
        ts_value_release(out);
        ts_value_release(args[0]);

        TsValue c[2] = { seen, ts_int(job->id) };
        if (ts_method_call(collect, c, 2, &out, &err))
            job->failures++;
        ts_value_release(out);

        float in[4] = { 1, 2, 3, 4 };
        int64_t s2[2] = { 1, 4 };
        TsValue x = ts_tensor_value(ts_tensor_from_blob(in, TS_FLOAT32, 2, s2, NULL, NULL,
                                                        NULL, &err));
        if (ts_method_call(r % 2 && fwd2 ? fwd2 : forward, &x, 1, &out, &err) ||
            ts_value_to_tensor(out, &y, &err)) {
            job->failures++;
        } else {
            const float *p = ts_tensor_data(y);
            job->failures += !(p[0] > 7 - 1e-5 && p[0] < 7 + 1e-5 && p[1] == 0);
        }
        ts_value_release(out);
        ts_value_release(x);
    }
    if (err.code != TS_OK)
        diag("thread %d: %s", job->id, err.msg);
    ts_error_clear(&err);
    ts_method_free(fwd2);
    return NULL;
}

int main(void)
{
    const char *srcdir = getenv("TS_SRCDIR") ? getenv("TS_SRCDIR") : TS_TEST_SRCDIR;
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = ts_runtime_open(NULL, &err);
    char model_path[1024];
    snprintf(model_path, sizeof model_path, "%s/examples/embed/linear.pt", srcdir);
    script = rt ? ts_script_compile(rt, "threads.py", source, strlen(source), &err) : NULL;
    affine = script ? ts_script_find_function(script, "affine", &err) : NULL;
    collect = affine ? ts_script_find_function(script, "collect", &err) : NULL;
    model = collect ? ts_module_load(rt, model_path, &err) : NULL;
    forward = model ? ts_module_find_method(model, "forward", &err) : NULL;
    if (!forward) {
        printf("Bail out! %s\n", err.msg);
        return 1;
    }
    ok(ts_value_list_new(ts_type_int(), NULL, 0, &seen, &err) == 0, "an empty List[int]");
    ok(ts_value_share(seen, &err) == 0, "... shared between the threads");

    pthread_t th[THREADS];
    Job jobs[THREADS];
    int started = 0;
    for (int i = 0; i < THREADS; i++) {
        jobs[i] = (Job){ i, 0 };
        started += pthread_create(&th[i], NULL, work, &jobs[i]) == 0;
    }
    is_int(started, THREADS, "%d threads call the same methods at once", THREADS);
    int failures = 0;
    for (int i = 0; i < started; i++) {
        pthread_join(th[i], NULL);
        failures += jobs[i].failures;
    }
    is_int(failures, 0, "every call of every thread gave the right result");
    is_int((long long)ts_value_len(seen), (long long)started * ROUNDS,
           "every append to the shared list is there");
    int64_t counts[THREADS] = { 0 };
    for (size_t i = 0; i < ts_value_len(seen); i++) {
        TsValue v;
        int64_t id = -1;
        if (ts_value_item(seen, i, &v, &err) == 0 && ts_value_to_int(v, &id, &err) == 0 &&
            id >= 0 && id < THREADS)
            counts[id]++;
    }
    int even = 1;
    for (int i = 0; i < started; i++)
        even &= counts[i] == ROUNDS;
    ok(even, "... %d from each thread", ROUNDS);

    ts_value_release(seen);
    ts_method_free(forward);
    ts_method_free(affine);
    ts_method_free(collect);
    ts_module_free(model);
    ts_script_free(script);
    ts_runtime_close(rt);
    ts_error_clear(&err);
    return done_testing();
}
