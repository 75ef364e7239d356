/* interp_loop.c — micro benchmark of the interpreter loop (not a test; not in make check).
 *
 * The graph PyTorch 1.13 makes of
 *     def main(n: int) -> int:
 *         i = 0; x = 0
 *         while i < n:
 *             if i % 3 == 0: x = x + i
 *             else: x = x - 1
 *             i += 1
 *         return x
 * run for 3 million iterations; prints the time per iteration. Build with
 * `make bench/interp_loop` and run from the build directory; `-d` also lists the Code.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "function.h"
#include "sched/code.h"
#include "sched/interp.h"

static const char loop_ir[] =
    "graph(%n : int):\n"
    "  %max : int = prim::Constant[value=9223372036854775807]()\n"
    "  %0 : int = prim::Constant[value=0]()\n"
    "  %1 : int = prim::Constant[value=1]()\n"
    "  %3 : int = prim::Constant[value=3]()\n"
    "  %c0 : bool = aten::lt(%0, %n)\n"
    "  %i : int, %x : int = prim::Loop(%max, %c0, %0, %0)\n"
    "    block0(%k : int, %i.1 : int, %x.1 : int):\n"
    "      %m : int = aten::remainder(%i.1, %3)\n"
    "      %z : bool = aten::eq(%m, %0)\n"
    "      %x.2 : int = prim::If(%z)\n"
    "        block0():\n"
    "          %a : int = aten::add(%x.1, %i.1)\n"
    "          -> (%a)\n"
    "        block1():\n"
    "          %b : int = aten::sub(%x.1, %1)\n"
    "          -> (%b)\n"
    "      %i.2 : int = aten::add(%i.1, %1)\n"
    "      %c : bool = aten::lt(%i.2, %n)\n"
    "      -> (%c, %i.2, %x.2)\n"
    "  return (%x)\n";

/* Wall time, and the process's CPU time (steadier on a shared machine). */
static double now(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    bool dump = argc > 1 && strcmp(argv[1], "-d") == 0;
    long n = argc > 1 + dump ? atol(argv[1 + dump]) : 3000000;
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = ts_runtime_open(NULL, &err);
    TsCompUnit *u = rt ? ts_unit_new(&err) : NULL;
    TsGraph *g = u ? ts_graph_parse(loop_ir, "loop", &err) : NULL;
    TsFunction *f = g ? ts_unit_add_function(u, "__torch__.main", g, NULL, NULL, &err) : NULL;
    if (!f) {
        fprintf(stderr, "interp_loop: %s\n", err.msg);
        return 1;
    }
    TsValue out, arg = ts_int(1);
    ts_run(rt, u, f, &arg, 1, &out, &err);     /* builds the Code: not timed */
    if (dump) {
        char *listing = ts_code_dump(f->code);
        fputs(listing ? listing : "(no memory)\n", stdout);
        free(listing);
    }
    double best = 1e30, best_cpu = 1e30;
    for (int rep = 0; rep < 5; rep++) {
        arg = ts_int(n);
        double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
        if (ts_run(rt, u, f, &arg, 1, &out, &err)) {
            fprintf(stderr, "interp_loop: %s\n", err.msg);
            return 1;
        }
        double dt = now(CLOCK_MONOTONIC) - t0, dc = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
        if (dt < best)
            best = dt;
        if (dc < best_cpu)
            best_cpu = dc;
    }
    printf("while loop with a branch, %ld iterations: %.1f ns/iteration (%.1f ns of CPU time; "
           "result %lld)\n", n, best * 1e9 / (double)n, best_cpu * 1e9 / (double)n,
           (long long)out.u.i);
    ts_unit_free(u);
    ts_runtime_close(rt);
    return 0;
}
