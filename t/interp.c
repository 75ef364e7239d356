/* interp.c — tests of core/sched: Code and the interpreter, on graphs written as IR text.
 *
 * Arithmetic and control flow, loops with many carried values, values released at their last
 * use (seen through the interpreter's test hook), calls and deep call chains, fork/wait with
 * many futures and failing forks, and errors unwinding through calls with PyTorch's
 * traceback. Run under ASan and valgrind, the error paths also show that nothing leaks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "function.h"
#include "runtime.h"
#include "sched/code.h"
#include "sched/interp.h"
#include "sched/threadpool.h"
#include "tap.h"

static TsRuntime *rt;

/* A unit of n functions "__torch__.NAME" from IR texts; NULL (with a diagnostic) on error. */
static TsCompUnit *unit_of(size_t n, const char *const *names, const char *const *texts)
{
    TsError err = TS_ERROR_INIT;
    TsCompUnit *u = ts_unit_new(&err);
    for (size_t i = 0; u && i < n; i++) {
        char q[128];
        snprintf(q, sizeof q, "__torch__.%s", names[i]);
        TsGraph *g = ts_graph_parse(texts[i], names[i], &err);
        if (!g || !ts_unit_add_function(u, q, g, NULL, NULL, &err)) {
            diag("%s: %s", names[i], err.msg);
            ts_graph_free(g);
            ts_unit_free(u);
            u = NULL;
        }
    }
    ts_error_clear(&err);
    return u;
}

/* Runs "main" of the unit; returns the status with err set on failure. */
static int run_main(TsCompUnit *u, TsValue *args, size_t n, TsValue *out, TsError *err)
{
    TsFunction *f = ts_unit_find(u, "__torch__.main");
    return ts_run(rt, u, f, args, n, out, err);
}

/* Runs a one-function unit. */
static int run1(const char *text, TsValue *args, size_t n, TsValue *out, TsError *err)
{
    const char *names[] = {"main"};
    TsCompUnit *u = unit_of(1, names, &text);
    if (!u) {
        for (size_t i = 0; i < n; i++)
            ts_value_release(args[i]);
        return ts_error_set(err, TS_ERR_SYNTAX, "bad test graph");
    }
    int rc = run_main(u, args, n, out, err);
    ts_unit_free(u);
    return rc;
}

static int64_t run_int(const char *text, TsValue *args, size_t n)
{
    TsError err = TS_ERROR_INIT;
    TsValue out;
    if (run1(text, args, n, &out, &err)) {
        diag("error: %s", err.msg);
        ts_error_clear(&err);
        return -999999;
    }
    int64_t r = out.tag == TS_TAG_INT ? out.u.i : -888888;
    ts_value_release(out);
    return r;
}

static TsValue int_list(size_t n)
{
    TsList *l = ts_list_new(ts_type_int(), n, NULL);
    for (size_t i = 0; i < n; i++)
        ts_list_append(l, ts_int((int64_t)i), NULL);
    return ts_obj_value(l, TS_TAG_LIST);
}

/* ---- arithmetic and control flow ------------------------------------------------------- */
static const char arith[] =
    "graph(%a : int, %b : int):\n"
    "  %q : int = aten::floordiv(%a, %b)\n"
    "  %r : int = aten::remainder(%a, %b)\n"
    "  %m : int = aten::mul(%q, %b)\n"
    "  %s : int = aten::add(%m, %r)\n"
    "  %e : bool = aten::eq(%s, %a)\n"
    "  %t : (int, int, bool) = prim::TupleConstruct(%q, %r, %e)\n"
    "  return (%t)\n";

static void test_arith(void)
{
    /* the last rows divide by powers of two (a shift and a mask) and by large divisors */
    static const int64_t cases[][4] = {{7, 2, 3, 1}, {-7, 2, -4, 1}, {7, -2, -4, -1},
                                       {-7, -2, 3, -1}, {6, 3, 2, 0},
                                       {-7, 8, -1, 1}, {7, 8, 0, 7}, {-8, 8, -1, 0},
                                       {((int64_t)1 << 40) + 5, (int64_t)1 << 31, 512, 5},
                                       {-((int64_t)1 << 40) - 5, (int64_t)1 << 31, -513,
                                        ((int64_t)1 << 31) - 5},
                                       {INT64_MIN, 1, INT64_MIN, 0},
                                       {INT64_MIN, 4, INT64_MIN / 4, 0},
                                       {-1, (int64_t)1 << 62, -1, ((int64_t)1 << 62) - 1},
                                       {INT64_MAX, (int64_t)1 << 62, 1, ((int64_t)1 << 62) - 1},
                                       {((int64_t)1 << 40) + 7, 3, 366503875927, 2}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TsValue args[2] = {ts_int(cases[i][0]), ts_int(cases[i][1])}, out;
        TsError err = TS_ERROR_INIT;
        int rc = run1(arith, args, 2, &out, &err);
        TsTuple *t = rc ? NULL : (TsTuple *)out.u.p;
        ok(!rc && out.tag == TS_TAG_TUPLE && t->len == 3 && t->items[0].u.i == cases[i][2] &&
               t->items[1].u.i == cases[i][3] && t->items[2].u.b,
           "%lld // %lld and %% round toward negative infinity", (long long)cases[i][0],
           (long long)cases[i][1]);
        if (rc)
            diag("%s", err.msg);
        ts_error_clear(&err);
        ts_value_release(out);
    }
    TsValue args[2] = {ts_int(1), ts_int(0)}, out;
    TsError err = TS_ERROR_INIT;
    int rc = run1(arith, args, 2, &out, &err);
    ok(rc != 0, "integer division by zero fails");
    like(err.msg, "\nRuntimeError: division by 0\n", "with the kernel's message, as PyTorch");
    like(err.msg, "Traceback of TorchScript", "and a traceback");
    ts_error_clear(&err);

    TsValue wrap[2] = {ts_int(INT64_MAX), ts_int(1)};
    is_int(run_int("graph(%a : int, %b : int):\n  %c : int = aten::add(%a, %b)\n"
                   "  return (%c)\n", wrap, 2),
           INT64_MIN, "int addition wraps around as in PyTorch");
    TsValue fl[2] = {ts_double(1.5), ts_double(2.25)};
    TsValue fo;
    rc = run1("graph(%a : float, %b : float):\n  %c : float = aten::mul(%a, %b)\n"
              "  %d : float = aten::sub(%c, %a)\n  return (%d)\n", fl, 2, &fo, &err);
    ok(!rc && fo.tag == TS_TAG_DOUBLE && fo.u.d == 1.5 * 2.25 - 1.5, "float arithmetic");
    ts_error_clear(&err);
}

static const char if_graph[] =
    "graph(%x : int):\n"
    "  %0 : int = prim::Constant[value=0]()\n"
    "  %10 : int = prim::Constant[value=10]()\n"
    "  %c : bool = aten::lt(%x, %0)\n"
    "  %r : int, %s : int = prim::If(%c)\n"
    "    block0():\n"
    "      %n : int = aten::neg(%x)\n"
    "      -> (%n, %0)\n"
    "    block1():\n"
    "      %p : int = aten::add(%x, %10)\n"
    "      -> (%x, %p)\n"
    "  %t : int = aten::mul(%r, %s)\n"
    "  %u : int = aten::add(%t, %r)\n"
    "  return (%u)\n";

/* sum of i * i for i in range(n), a counted loop that uses %i */
static const char for_graph[] =
    "graph(%n : int):\n"
    "  %0 : int = prim::Constant[value=0]()\n"
    "  %t : bool = prim::Constant[value=1]()\n"
    "  %s : int = prim::Loop(%n, %t, %0)\n"
    "    block0(%i : int, %acc : int):\n"
    "      %sq : int = aten::mul(%i, %i)\n"
    "      %a2 : int = aten::add(%acc, %sq)\n"
    "      -> (%t, %a2)\n"
    "  return (%s)\n";

/* while x < n: if x % 3 == 0: x += 2 else: x += 1; count += 1 (a while loop: no counter) */
static const char while_graph[] =
    "graph(%n : int):\n"
    "  %max : int = prim::Constant[value=9223372036854775807]()\n"
    "  %0 : int = prim::Constant[value=0]()\n"
    "  %1 : int = prim::Constant[value=1]()\n"
    "  %2 : int = prim::Constant[value=2]()\n"
    "  %3 : int = prim::Constant[value=3]()\n"
    "  %c0 : bool = aten::lt(%0, %n)\n"
    "  %x : int, %k : int = prim::Loop(%max, %c0, %0, %0)\n"
    "    block0(%i : int, %x.1 : int, %k.1 : int):\n"
    "      %m : int = aten::remainder(%x.1, %3)\n"
    "      %z : bool = aten::eq(%m, %0)\n"
    "      %x.2 : int = prim::If(%z)\n"
    "        block0():\n"
    "          %a : int = aten::add(%x.1, %2)\n"
    "          -> (%a)\n"
    "        block1():\n"
    "          %b : int = aten::add(%x.1, %1)\n"
    "          -> (%b)\n"
    "      %k.2 : int = aten::add(%k.1, %1)\n"
    "      %c : bool = aten::lt(%x.2, %n)\n"
    "      -> (%c, %x.2, %k.2)\n"
    "  %r : int = aten::mul(%k, %3)\n"
    "  %r2 : int = aten::add(%r, %x)\n"
    "  return (%r2)\n";

static void test_control(void)
{
    TsValue a = ts_int(-4), b = ts_int(5);
    is_int(run_int(if_graph, &a, 1), 4 * 0 + 4, "If takes the then branch");
    is_int(run_int(if_graph, &b, 1), 5 * 15 + 5, "If takes the else branch");
    TsValue n = ts_int(10), z = ts_int(0), neg = ts_int(-3);
    is_int(run_int(for_graph, &n, 1), 285, "a counted loop sees its trip count");
    is_int(run_int(for_graph, &z, 1), 0, "a loop of zero trips yields its initial values");
    is_int(run_int(for_graph, &neg, 1), 0, "a negative trip count runs no iteration");
    /* x: 0 ->2 ->3 ->5 ->6 ->8 ->9 ->11: 7 steps to reach >= 10, x = 11 */
    TsValue ten = ts_int(10);
    is_int(run_int(while_graph, &ten, 1), 7 * 3 + 11, "a while loop with a branch");
    TsError err = TS_ERROR_INIT;
    const char *names[] = {"main"}, *texts[] = {while_graph};
    TsCompUnit *u = unit_of(1, names, texts);
    TsValue one = ts_int(1), out;
    run_main(u, &one, 1, &out, &err);
    char *dump = ts_code_dump(ts_unit_find(u, "__torch__.main")->code);
    ok(dump && !strstr(dump, "LOOP_ENTER") && !strstr(dump, "LOOP_NEXT"),
       "a while loop keeps no trip counter");
    ok(dump && strstr(dump, "JLT_I") && strstr(dump, "JREM_NE_IK r") && !strstr(dump, "EQ_I "),
       "compares feeding a jump are fused with it (x %% 3 == 0 with the remainder too)");
    const char *m1 = dump ? strstr(dump, "MOVES") : NULL;
    ok(m1 && !strstr(m1 + 1, "MOVES") && strstr(dump, "ADD_I r") && strstr(dump, "preload r"),
       "the loop body copies nothing: carried ints and the If's output share registers");
    if (dump && (!m1 || strstr(m1 + 1, "MOVES")))
        diag("%s", dump);
    ok(dump && strstr(dump, "ADD_I") && strstr(dump, "LT_I") && !strstr(dump, "KERNEL"),
       "int arithmetic on known types has its own opcodes");
    free(dump);
    ts_unit_free(u);
}

/* ---- the int fast path (optimize.c): immediates, fused increments ---------------------- */
static char *dump_of(TsCompUnit *u)
{
    return ts_code_dump(ts_unit_find(u, "__torch__.main")->code);
}

/* Runs main(args) of a one-function unit and returns its int tuple's items in out (n of
 * them) and the listing of its Code; false (with a diagnostic) on error. */
static bool run_ints(const char *text, TsValue *args, size_t n_args, int64_t *out, size_t n,
                     char **dump)
{
    const char *names[] = {"main"};
    TsCompUnit *u = unit_of(1, names, &text);
    TsError err = TS_ERROR_INIT;
    TsValue v = ts_none();
    bool good = u && !run_main(u, args, n_args, &v, &err);
    if (u && !good)
        diag("error: %s", err.msg);
    if (good && n == 1 && v.tag == TS_TAG_INT) {
        out[0] = v.u.i;
    } else if (good && v.tag == TS_TAG_TUPLE && ((TsTuple *)v.u.p)->len == n) {
        for (size_t i = 0; i < n; i++)
            out[i] = ((TsTuple *)v.u.p)->items[i].u.i;
    } else {
        good = false;
    }
    if (dump)
        *dump = u ? dump_of(u) : NULL;
    ts_value_release(v);
    ts_error_clear(&err);
    ts_unit_free(u);
    return good;
}

/* Arithmetic by constants: each becomes its _IK op; the answers are torch 1.13's (scripted
 * a + 7, a - 7, a * 1103515245, a // 3, a % 3, a // 7, a % 7, -3 * a). */
static const char imm_arith[] =
    "graph(%a : int):\n"
    "  %k7 : int = prim::Constant[value=7]()\n"
    "  %k3 : int = prim::Constant[value=3]()\n"
    "  %km3 : int = prim::Constant[value=-3]()\n"
    "  %kb : int = prim::Constant[value=1103515245]()\n"
    "  %s : int = aten::add(%a, %k7)\n"
    "  %d : int = aten::sub(%a, %k7)\n"
    "  %m : int = aten::mul(%a, %kb)\n"
    "  %q3 : int = aten::floordiv(%a, %k3)\n"
    "  %r3 : int = aten::remainder(%a, %k3)\n"
    "  %q7 : int = aten::floordiv(%a, %k7)\n"
    "  %r7 : int = aten::remainder(%a, %k7)\n"
    "  %n : int = aten::mul(%km3, %a)\n"
    "  %t : (int, int, int, int, int, int, int, int) = "
    "prim::TupleConstruct(%s, %d, %m, %q3, %r3, %q7, %r7, %n)\n"
    "  return (%t)\n";

/* Floor division and modulo by constant powers of two become a shift and a mask (the _PK
 * ops), within int32 and beyond it: a // 8, a % 8, a // 2**31, a % 2**31, a // 2**62,
 * a % 2**62, a // 1, a % 1. */
static const char pow2_arith[] =
    "graph(%a : int):\n"
    "  %k8 : int = prim::Constant[value=8]()\n"
    "  %k31 : int = prim::Constant[value=2147483648]()\n"
    "  %k62 : int = prim::Constant[value=4611686018427387904]()\n"
    "  %k1 : int = prim::Constant[value=1]()\n"
    "  %q8 : int = aten::floordiv(%a, %k8)\n"
    "  %r8 : int = aten::remainder(%a, %k8)\n"
    "  %q31 : int = aten::floordiv(%a, %k31)\n"
    "  %r31 : int = aten::remainder(%a, %k31)\n"
    "  %q62 : int = aten::floordiv(%a, %k62)\n"
    "  %r62 : int = aten::remainder(%a, %k62)\n"
    "  %q1 : int = aten::floordiv(%a, %k1)\n"
    "  %r1 : int = aten::remainder(%a, %k1)\n"
    "  %t : (int, int, int, int, int, int, int, int) = "
    "prim::TupleConstruct(%q8, %r8, %q31, %r31, %q62, %r62, %q1, %r1)\n"
    "  return (%t)\n";

/* Python's a // b and a % b for b > 0, by division (the reference for the shifts). */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return q - (a % b != 0 && a < 0);
}

static int64_t floor_mod(int64_t a, int64_t b)
{
    int64_t r = a % b;
    return r < 0 ? r + b : r;
}

static void test_pow2_arith(void)
{
    static const int64_t as[] = {0, 1, 7, 8, 9, -1, -7, -8, -9, 2147483647, 2147483648,
                                 -2147483648, -2147483649, 4611686018427387905,
                                 -4611686018427387905, INT64_MAX, INT64_MIN};
    static const int64_t ks[4] = {8, 2147483648, 4611686018427387904, 1};
    char *dump = NULL;
    for (size_t i = 0; i < sizeof as / sizeof as[0]; i++) {
        TsValue a = ts_int(as[i]);
        int64_t got[8] = {0}, want[8];
        for (size_t k = 0; k < 4; k++) {
            want[2 * k] = floor_div(as[i], ks[k]);
            want[2 * k + 1] = floor_mod(as[i], ks[k]);
        }
        bool good = run_ints(pow2_arith, &a, 1, got, 8, i ? NULL : &dump);
        ok(good && !memcmp(got, want, sizeof got),
           "a // and %% 8, 2**31, 2**62 and 1 by shifts and masks for a = %lld",
           (long long)as[i]);
        for (size_t k = 0; good && k < 8; k++)
            if (got[k] != want[k])
                diag("item %zu: got %lld, want %lld", k, (long long)got[k], (long long)want[k]);
    }
    ok(dump && strstr(dump, "FLOORDIV_PK r0 #2**3") && strstr(dump, "REM_PK r0 #2**31") &&
           strstr(dump, "FLOORDIV_PK r0 #2**62") && strstr(dump, "REM_PK r0 #2**0") &&
           !strstr(dump, "_IK") && !strstr(dump, "_I r"),
       "a power-of-two divisor, in int32 or beyond, is a shift or a mask");
    if (dump && !strstr(dump, "REM_PK r0 #2**31"))
        diag("%s", dump);
    free(dump);
}

/* The general forms stay where an immediate cannot apply: a constant beyond int32, a
 * divisor <= 0, INT32_MIN subtracted (its negation overflows), an operand not constant. */
static const char general_arith[] =
    "graph(%a : int, %b : int):\n"
    "  %big : int = prim::Constant[value=4294967296]()\n"
    "  %km3 : int = prim::Constant[value=-3]()\n"
    "  %kmin : int = prim::Constant[value=-2147483648]()\n"
    "  %s : int = aten::add(%a, %big)\n"
    "  %q : int = aten::floordiv(%a, %km3)\n"
    "  %r : int = aten::remainder(%a, %km3)\n"
    "  %d : int = aten::sub(%a, %kmin)\n"
    "  %v : int = aten::mul(%a, %b)\n"
    "  %t : (int, int, int, int, int) = prim::TupleConstruct(%s, %q, %r, %d, %v)\n"
    "  return (%t)\n";

static void test_imm_arith(void)
{
    static const int64_t cases[][9] = {
        {0, 7, -7, 0, 0, 0, 0, 0, 0},
        {-1, 6, -8, -1103515245, -1, 2, -1, 6, 3},
        {1, 8, -6, 1103515245, 0, 1, 0, 1, -3},
        {-7, 0, -14, -7724606715, -3, 2, -1, 0, 21},
        {7, 14, 0, 7724606715, 2, 1, 1, 0, -21},
        {INT64_MAX, INT64_MIN + 6, INT64_MAX - 7, 9223372035751260563, 3074457345618258602,
         1, 1317624576693539401, 0, INT64_MIN + 3},
        {INT64_MIN, INT64_MIN + 7, INT64_MAX - 6, INT64_MIN, -3074457345618258603, 1,
         -1317624576693539402, 6, INT64_MIN},
        {4294967295, 4294967302, 4294967288, 4739561886808912275, 1431655765, 0, 613566756,
         3, -12884901885},
        {4294967296, 4294967303, 4294967289, 4739561887912427520, 1431655765, 1, 613566756,
         4, -12884901888},
        {-4294967296, -4294967289, -4294967303, -4739561887912427520, -1431655766, 2,
         -613566757, 3, 12884901888},
        {-4294967297, -4294967290, -4294967304, -4739561889015942765, -1431655766, 1,
         -613566757, 2, 12884901891},
    };
    char *dump = NULL;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TsValue a = ts_int(cases[i][0]);
        int64_t got[8] = {0};
        bool good = run_ints(imm_arith, &a, 1, got, 8, i ? NULL : &dump);
        ok(good && !memcmp(got, cases[i] + 1, sizeof got),
           "a + 7, a - 7, a * 1103515245, a // 3, a %% 3, a // 7, a %% 7, -3 * a by immediates "
           "for a = %lld, as torch 1.13", (long long)cases[i][0]);
        for (size_t k = 0; good && k < 8; k++)
            if (got[k] != cases[i][k + 1])
                diag("item %zu: got %lld, want %lld", k, (long long)got[k],
                     (long long)cases[i][k + 1]);
    }
    ok(dump && strstr(dump, "ADD_IK r0 #7") && strstr(dump, "ADD_IK r0 #-7") &&
           strstr(dump, "MUL_IK r0 #1103515245") && strstr(dump, "FLOORDIV_IK r0 #3") &&
           strstr(dump, "REM_IK r0 #7") && strstr(dump, "MUL_IK r0 #-3") &&
           !strstr(dump, "_I r") && !strstr(dump, "preload"),
       "constants fitting int32 become immediates (SUB by negation, K * a commuted)");
    if (dump && strstr(dump, "_I r"))
        diag("%s", dump);
    free(dump);
    dump = NULL;

    static const int64_t general[][7] = {
        {7, 5, 4294967303, -3, -2, 2147483655, 35},
        {-7, 5, 4294967289, 2, -1, 2147483641, -35},
        {INT64_MAX, 2, INT64_MIN + 4294967295, -3074457345618258603, -2, INT64_MIN + 2147483647,
         -2},
        {0, 0, 4294967296, 0, 0, 2147483648, 0},
    };
    for (size_t i = 0; i < sizeof general / sizeof general[0]; i++) {
        TsValue ab[2] = {ts_int(general[i][0]), ts_int(general[i][1])};
        int64_t got[5] = {0};
        bool good = run_ints(general_arith, ab, 2, got, 5, i ? NULL : &dump);
        ok(good && !memcmp(got, general[i] + 2, sizeof got),
           "a + 2**32, a // -3, a %% -3, a - (-2**31), a * b for a = %lld, b = %lld",
           (long long)general[i][0], (long long)general[i][1]);
    }
    ok(dump && strstr(dump, "ADD_I r0 r") && strstr(dump, "FLOORDIV_I r0 r") &&
           strstr(dump, "REM_I r0 r") && strstr(dump, "SUB_I r0 r") &&
           strstr(dump, "MUL_I r0 r1") && !strstr(dump, "_IK"),
       "no immediate for a constant beyond int32, a divisor <= 0, -(-2**31) or a register");
    if (dump && strstr(dump, "_IK"))
        diag("%s", dump);
    free(dump);

    /* a zero divisor keeps the general op, whose kernel says what is wrong as before */
    static const char *const by_zero[] = {
        "graph(%a : int):\n  %z : int = prim::Constant[value=0]()\n"
        "  %r : int = aten::remainder(%a, %z)\n  return (%r)\n",
        "graph(%a : int):\n  %z : int = prim::Constant[value=0]()\n"
        "  %r : int = aten::floordiv(%a, %z)\n  return (%r)\n",
    };
    for (size_t i = 0; i < 2; i++) {
        TsValue a = ts_int(5), out;
        TsError err = TS_ERROR_INIT;
        int rc = run1(by_zero[i], &a, 1, &out, &err);
        ok(rc != 0, "5 %s 0 by a constant zero fails", i ? "//" : "%");
        like(err.msg, i ? "\nRuntimeError: division by 0\n" : "\nRuntimeError: modulo by 0\n",
             "with the kernel's message");
        ts_error_clear(&err);
    }
}

/* if a REL K / if K REL a: fused compare-and-jumps against an immediate. */
static void test_imm_jumps(void)
{
    static const char *const rels[] = {"lt", "le", "gt", "ge", "eq", "ne"};
    static const int64_t as[] = {4, 5, 6, -5, 0, INT64_MIN, INT64_MAX};
    const int64_t k = 5;
    for (size_t r = 0; r < 6; r++)
        for (int left = 0; left < 2; left++) {
            char g[512];
            snprintf(g, sizeof g,
                     "graph(%%a : int):\n"
                     "  %%k : int = prim::Constant[value=%lld]()\n"
                     "  %%one : int = prim::Constant[value=1]()\n"
                     "  %%two : int = prim::Constant[value=2]()\n"
                     "  %%c : bool = aten::%s(%s)\n"
                     "  %%r : int = prim::If(%%c)\n"
                     "    block0():\n      -> (%%one)\n"
                     "    block1():\n      -> (%%two)\n"
                     "  return (%%r)\n",
                     (long long)k, rels[r], left ? "%k, %a" : "%a, %k");
            bool all = true;
            char *dump = NULL;
            for (size_t i = 0; i < sizeof as / sizeof as[0]; i++) {
                int64_t x = left ? k : as[i], y = left ? as[i] : k, got = 0;
                bool want = r == 0 ? x < y : r == 1 ? x <= y : r == 2 ? x > y
                          : r == 3 ? x >= y : r == 4 ? x == y : x != y;
                TsValue a = ts_int(as[i]);
                if (!run_ints(g, &a, 1, &got, 1, i ? NULL : &dump) || got != (want ? 1 : 2)) {
                    diag("a = %lld: got %lld", (long long)as[i], (long long)got);
                    all = false;
                }
            }
            ok(all, "if %s %s %s: right for a = 4, 5, 6, -5, 0, INT64_MIN, INT64_MAX",
               left ? "5" : "a", rels[r], left ? "a" : "5");
            ok(dump && strstr(dump, "_IK r0 #5 -> ") && !strstr(dump, "JUMP_IF"),
               "if %s: a compare-and-jump against the immediate 5", rels[r]);
            free(dump);
        }
    /* beyond int32 the constant is preloaded */
    char *dump = NULL;
    int64_t got = 0;
    TsValue a = ts_int(1);
    bool good = run_ints("graph(%a : int):\n"
                         "  %k : int = prim::Constant[value=-4294967296]()\n"
                         "  %one : int = prim::Constant[value=1]()\n"
                         "  %two : int = prim::Constant[value=2]()\n"
                         "  %c : bool = aten::gt(%a, %k)\n"
                         "  %r : int = prim::If(%c)\n"
                         "    block0():\n      -> (%one)\n"
                         "    block1():\n      -> (%two)\n"
                         "  return (%r)\n", &a, 1, &got, 1, &dump);
    ok(good && got == 1 && dump && strstr(dump, "JLE_I r0 r") && !strstr(dump, "_IK"),
       "if a > -2**32: the general compare-and-jump, with the constant preloaded");
    free(dump);
}

/* if a % K == K2 / != K2: one JREM_*_IK when the remainder is used by nothing else (a mask
 * for K a power of two); checked against C's floor modulo for a across int64. */
static const char rem_jump[] =
    "graph(%%a : int):\n"
    "  %%k : int = prim::Constant[value=%lld]()\n"
    "  %%k2 : int = prim::Constant[value=%lld]()\n"
    "  %%one : int = prim::Constant[value=1]()\n"
    "  %%two : int = prim::Constant[value=2]()\n"
    "  %%m : int = aten::remainder(%%a, %%k)\n"
    "  %%c : bool = aten::%s(%s)\n"
    "  %%r : int = prim::If(%%c)\n"
    "    block0():\n      -> (%%one)\n"
    "    block1():\n      -> (%%two)\n"
    "  %%t : (int, int) = prim::TupleConstruct(%%r, %s)\n"
    "  return (%%t)\n";

static void test_rem_jumps(void)
{
    static const int64_t as[] = {0, 1, 2, 3, 7, 8, 9, -1, -2, -3, -8, 2147483647, 2147483648,
                                 4294967295, 4294967296, -4294967297, 4611686018427387905,
                                 INT64_MAX, INT64_MIN, INT64_MIN + 1};
    static const int64_t ks[] = {3, 7, 8, 1, 2147483648, 1099511627776, 2147483647};
    static const int64_t k2s[] = {0, 1, 2, -1, 7};
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++)
        for (int ne = 0; ne < 2; ne++)
            for (int left = 0; left < 2; left++) {
                bool all = true, fused = true;
                for (size_t k2i = 0; k2i < sizeof k2s / sizeof k2s[0]; k2i++) {
                    char g[1024];
                    snprintf(g, sizeof g, rem_jump, (long long)ks[ki], (long long)k2s[k2i],
                             ne ? "ne" : "eq", left ? "%k2, %m" : "%m, %k2", "%one");
                    for (size_t i = 0; i < sizeof as / sizeof as[0]; i++) {
                        int64_t m = floor_mod(as[i], ks[ki]), got[2] = {0, 0};
                        int64_t want = (m == k2s[k2i]) != ne ? 1 : 2;
                        TsValue a = ts_int(as[i]);
                        char *dump = NULL;
                        if (!run_ints(g, &a, 1, got, 2, i ? NULL : &dump) || got[0] != want) {
                            diag("a = %lld %% %lld %s %lld: got %lld, want %lld",
                                 (long long)as[i], (long long)ks[ki], ne ? "!=" : "==",
                                 (long long)k2s[k2i], (long long)got[0], (long long)want);
                            all = false;
                        }
                        if (dump && (!strstr(dump, ne ? "JREM_EQ_IK r0 #" : "JREM_NE_IK r0 #") ||
                                     strstr(dump, "REM_I") || strstr(dump, "REM_PK"))) {
                            if (fused)
                                diag("%s", dump);
                            fused = false;
                        }
                        free(dump);
                    }
                }
                ok(all, "if %s: right across int64 for K2 in 0, 1, 2, -1, 7",
                   left ? (ne ? "K2 != a % K" : "K2 == a % K") : (ne ? "a % K != K2" : "a % K == K2"));
                ok(fused, "... K = %lld: the remainder and the jump (to the else-branch) are "
                          "one JREM_%s_IK", (long long)ks[ki], ne ? "EQ" : "NE");
            }
    /* not fused: the remainder used again, a divisor <= 0, a compare beyond int32 */
    static const struct { int64_t k, k2; bool keep; const char *op; } no[] = {
        {3, 0, true, "REM_IK"}, {-3, 0, false, "REM_I r"}, {3, 4294967296, false, "REM_IK"},
    };
    for (size_t c = 0; c < sizeof no / sizeof no[0]; c++) {
        char g[1024];
        snprintf(g, sizeof g, rem_jump, (long long)no[c].k, (long long)no[c].k2, "eq", "%m, %k2",
                 no[c].keep ? "%m" : "%one");
        bool all = true, plain = true;
        for (size_t i = 0; i < sizeof as / sizeof as[0]; i++) {
            int64_t r = as[i] % no[c].k, m = r != 0 && (r < 0) != (no[c].k < 0) ? r + no[c].k : r;
            int64_t want[2] = {m == no[c].k2 ? 1 : 2, no[c].keep ? m : 1}, got[2] = {0, 0};
            TsValue a = ts_int(as[i]);
            char *dump = NULL;
            if (!run_ints(g, &a, 1, got, 2, i ? NULL : &dump) || memcmp(got, want, sizeof got)) {
                diag("a = %lld: got %lld %lld", (long long)as[i], (long long)got[0],
                     (long long)got[1]);
                all = false;
            }
            if (dump && (strstr(dump, "JREM") || !strstr(dump, no[c].op))) {
                diag("%s", dump);
                plain = false;
            }
            free(dump);
        }
        static const char *const what[] = {"the remainder used after the jump",
                                           "a negative divisor", "a compare beyond int32"};
        ok(all && plain, "%s: right, and not fused (%s)", what[c], no[c].op);
    }
}

/* A JUMP to a loop's back edge (the end of an if's then-branch) runs a copy of the back
 * edge: `while i < n: if i % 3 == 0: acc += i else: acc -= 1; i += 1`, and its counted
 * form `for i in range(n)`. */
static const char branchy_while[] =
    "graph(%n : int):\n"
    "  %0 : int = prim::Constant[value=0]()\n"
    "  %max : int = prim::Constant[value=9223372036854775807]()\n"
    "  %3 : int = prim::Constant[value=3]()\n"
    "  %1 : int = prim::Constant[value=1]()\n"
    "  %c0 : bool = aten::lt(%0, %n)\n"
    "  %acc : int, %i : int = prim::Loop(%max, %c0, %0, %0)\n"
    "    block0(%8 : int, %acc.9 : int, %i.5 : int):\n"
    "      %11 : int = aten::remainder(%i.5, %3)\n"
    "      %12 : bool = aten::eq(%11, %0)\n"
    "      %acc.7 : int = prim::If(%12)\n"
    "        block0():\n"
    "          %acc.3 : int = aten::add(%acc.9, %i.5)\n"
    "          -> (%acc.3)\n"
    "        block1():\n"
    "          %acc.5 : int = aten::sub(%acc.9, %1)\n"
    "          -> (%acc.5)\n"
    "      %i.3 : int = aten::add(%i.5, %1)\n"
    "      %17 : bool = aten::lt(%i.3, %n)\n"
    "      -> (%17, %acc.7, %i.3)\n"
    "  %t : (int, int) = prim::TupleConstruct(%acc, %i)\n"
    "  return (%t)\n";

static const char branchy_for[] =
    "graph(%n : int):\n"
    "  %0 : int = prim::Constant[value=0]()\n"
    "  %3 : int = prim::Constant[value=3]()\n"
    "  %1 : int = prim::Constant[value=1]()\n"
    "  %t : bool = prim::Constant[value=1]()\n"
    "  %acc : int, %c : int = prim::Loop(%n, %t, %0, %0)\n"
    "    block0(%i : int, %acc.1 : int, %c.1 : int):\n"
    "      %m : int = aten::remainder(%i, %3)\n"
    "      %z : bool = aten::ne(%m, %1)\n"
    "      %acc.2 : int, %c.2 : int = prim::If(%z)\n"
    "        block0():\n"
    "          %a : int = aten::add(%acc.1, %i)\n"
    "          -> (%a, %c.1)\n"
    "        block1():\n"
    "          %d : int = aten::add(%c.1, %1)\n"
    "          -> (%acc.1, %d)\n"
    "      -> (%t, %acc.2, %c.2)\n"
    "  %r : (int, int) = prim::TupleConstruct(%acc, %c)\n"
    "  return (%r)\n";

static size_t count_of(const char *s, const char *what)
{
    size_t n = 0;
    for (; s && (s = strstr(s, what)) != NULL; s++)
        n++;
    return n;
}

static void test_thread_jumps(void)
{
    static const int64_t ns[] = {0, 1, 2, 3, 4, 10, 1000, -5};
    bool all = true, copied = true;
    for (int form = 0; form < 2; form++) {
        for (size_t c = 0; c < sizeof ns / sizeof ns[0]; c++) {
            int64_t want[2] = {0, 0}, got[2] = {0, 0};
            if (form == 0) {            /* the entry test skips the body when n <= 0 */
                int64_t i = 0, acc = 0;
                while (i < ns[c]) {
                    acc += i % 3 == 0 ? i : -1;
                    i++;
                }
                want[0] = acc;
                want[1] = i;
            } else {
                for (int64_t i = 0; i < ns[c]; i++) {
                    if (i % 3 != 1)
                        want[0] += i;
                    else
                        want[1]++;
                }
            }
            TsValue n = ts_int(ns[c]);
            char *dump = NULL;
            if (!run_ints(form ? branchy_for : branchy_while, &n, 1, got, 2, c ? NULL : &dump) ||
                memcmp(got, want, sizeof got)) {
                diag("%s, n = %lld: got %lld %lld, want %lld %lld", form ? "for" : "while",
                     (long long)ns[c], (long long)got[0], (long long)got[1], (long long)want[0],
                     (long long)want[1]);
                all = false;
            }
            if (dump && count_of(dump, form ? "LOOP_NEXT" : "INC_JLT_I") != 2) {
                diag("%s", dump);
                copied = false;
            }
            free(dump);
        }
        ok(all, "a %s loop with an if/else body: right for n = 0, 1, 2, 3, 4, 10, 1000, -5",
           form ? "counted" : "while");
        ok(copied, "... the then-branch runs a copy of the back edge (%s) instead of a JUMP to it",
           form ? "LOOP_NEXT" : "INC_JLT_I");
        all = copied = true;
    }
}

/* A do-while back edge `i = i + K; if i REL n: continue` is one INC_J*_I; counts the trips
 * against a C model (int64 wrap-around included). */
static int64_t trips(int64_t i, int64_t k, int64_t n, size_t rel)
{
    int64_t cnt = 0;
    bool more;
    do {
        cnt++;
        i = (int64_t)((uint64_t)i + (uint64_t)k);
        more = rel == 0 ? i < n : rel == 1 ? i <= n : rel == 2 ? i > n
             : rel == 3 ? i >= n : rel == 4 ? i == n : i != n;
    } while (more && cnt < 1000);
    return cnt;
}

static const char inc_loop[] =
    "graph(%%a : int, %%n : int, %%s : int):\n"
    "  %%k : int = prim::Constant[value=%lld]()\n"
    "  %%t : bool = prim::Constant[value=1]()\n"
    "  %%max : int = prim::Constant[value=9223372036854775807]()\n"
    "  %%zero : int = prim::Constant[value=0]()\n"
    "  %%one : int = prim::Constant[value=1]()\n"
    "  %%i : int, %%cnt : int = prim::Loop(%%max, %%t, %%a, %%zero)\n"
    "    block0(%%trip : int, %%i.1 : int, %%c.1 : int):\n"
    "      %%c.2 : int = aten::add(%%c.1, %%one)\n"
    "      %%i.2 : int = aten::%s(%%i.1, %s)\n"
    "      %%more : bool = aten::%s(%s)\n"
    "      -> (%%more, %%i.2, %%c.2)\n"
    "  return (%%cnt)\n";

static void test_inc_jumps(void)
{
    static const char *const rels[] = {"lt", "le", "gt", "ge", "eq", "ne"};
    static const char *const ops[] = {"LT", "LE", "GT", "GE", "EQ", "NE"};
    static const size_t mirrored[] = {2, 3, 0, 1, 4, 5};
    static const struct { int64_t a, k, n; } cases[] = {
        {0, 1, 10}, {0, 3, 12}, {10, -2, 0}, {-5, 1, -1}, {0, 1, 1}, {0, 1, 2},
        {INT64_MAX - 2, 1, 0}, {INT64_MIN + 2, -1, 0}, {INT64_MAX - 5, 1, INT64_MAX},
        {0, 2147483647, 4294967294}, {5, -2147483647, 5}, {INT64_MAX, 1, INT64_MIN},
    };
    for (size_t r = 0; r < 6; r++)
        for (int form = 0; form < 4; form++) {
            /* form 0: i + K REL n; 1: n REL' i + K (mirrored); 2: i - (-K) REL n;
             * 3: i + s REL n, s not a constant: no fusion */
            bool all = true, fused = true;
            size_t ran = 0;
            for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
                int64_t want = trips(cases[c].a, cases[c].k, cases[c].n, r), got = 0;
                if (want >= 1000)          /* never ends (or not soon): not a case here */
                    continue;
                char g[1024], want_op[32];
                snprintf(g, sizeof g, inc_loop, (long long)(form == 2 ? -cases[c].k : cases[c].k),
                         form == 2 ? "sub" : "add", form == 3 ? "%s" : "%k",
                         rels[form == 1 ? mirrored[r] : r], form == 1 ? "%n, %i.2" : "%i.2, %n");
                TsValue args[3] = {ts_int(cases[c].a), ts_int(cases[c].n), ts_int(cases[c].k)};
                char *dump = NULL;
                if (!run_ints(g, args, 3, &got, 1, &dump) || got != want) {
                    diag("a = %lld, K = %lld, n = %lld: %lld trips, want %lld",
                         (long long)cases[c].a, (long long)cases[c].k, (long long)cases[c].n,
                         (long long)got, (long long)want);
                    all = false;
                }
                snprintf(want_op, sizeof want_op, "INC_J%s_I r", ops[r]);
                if (!dump || (form == 3) != !strstr(dump, want_op) ||
                    (form == 3) != !!strstr(dump, "ADD_I r") || !strstr(dump, "INC_I r")) {
                    if (fused)
                        diag("%s", dump ? dump : "(no code)");
                    fused = false;
                }
                free(dump);
                ran++;
            }
            static const char *const forms[] = {"i += K; i %s n", "i += K; n %s i",
                                                "i -= -K; i %s n", "i += s; i %s n"};
            char what[64];
            snprintf(what, sizeof what, forms[form], rels[form == 1 ? mirrored[r] : r]);
            ok(all && ran >= 4, "%s: the trip counts of %zu loops, wrap-around included",
               what, ran);
            ok(fused, form == 3 ? "%s: s not a constant, no fused increment (the trip count "
                                  "is one INC_I)"
                                : "%s: the back edge is one INC_J%s_I (the trip count one INC_I)",
               what, ops[r]);
        }
}

/* A loop carrying n values that rotate every iteration: after k trips value j holds
 * (j + k) % n. */
static void test_many_carried(size_t n, int64_t trips)
{
    size_t cap = 4096 + n * 200;
    char *g = malloc(cap), *p = g;
    p += sprintf(p, "graph(%%n : int):\n  %%t : bool = prim::Constant[value=1]()\n");
    for (size_t j = 0; j < n; j++)
        p += sprintf(p, "  %%c%zu : int = prim::Constant[value=%zu]()\n", j, j);
    p += sprintf(p, "  ");
    for (size_t j = 0; j < n; j++)
        p += sprintf(p, "%s%%o%zu : int", j ? ", " : "", j);
    p += sprintf(p, " = prim::Loop(%%n, %%t");
    for (size_t j = 0; j < n; j++)
        p += sprintf(p, ", %%c%zu", j);
    p += sprintf(p, ")\n    block0(%%i : int");
    for (size_t j = 0; j < n; j++)
        p += sprintf(p, ", %%v%zu : int", j);
    p += sprintf(p, "):\n      -> (%%t");
    for (size_t j = 0; j < n; j++)
        p += sprintf(p, ", %%v%zu", (j + 1) % n);
    p += sprintf(p, ")\n  %%r : int[] = prim::ListConstruct(");
    for (size_t j = 0; j < n; j++)
        p += sprintf(p, "%s%%o%zu", j ? ", " : "", j);
    p += sprintf(p, ")\n  return (%%r)\n");
    TsValue arg = ts_int(trips), out;
    TsError err = TS_ERROR_INIT;
    int rc = run1(g, &arg, 1, &out, &err);
    bool good = !rc && out.tag == TS_TAG_LIST && ((TsList *)out.u.p)->len == n;
    for (size_t j = 0; good && j < n; j++)
        good = ((TsList *)out.u.p)->items[j].u.i == (int64_t)((j + (size_t)trips) % n);
    ok(good, "a loop with %zu carried values permuting them %lld times", n, (long long)trips);
    if (rc)
        diag("%s", err.msg);
    ts_error_clear(&err);
    ts_value_release(out);
    free(g);
}

/* prim::Print writes print()'s line to stdout (captured here in a file). */
static void test_print(void)
{
    fflush(stdout);
    FILE *tmp = tmpfile();
    int saved = dup(1);
    dup2(fileno(tmp), 1);
    TsValue l = int_list(2);
    int64_t r = run_int("graph(%l : int[]):\n"
                        "  %s : str = prim::Constant[value=\"hi\"]()\n"
                        "  %f : float = prim::Constant[value=2.5]()\n"
                        "  %0 : int = prim::Constant[value=0]()\n"
                        "   = prim::Print(%s, %l, %f)\n"
                        "  return (%0)\n", &l, 1);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    char buf[256] = "";
    rewind(tmp);
    size_t n = fread(buf, 1, sizeof buf - 1, tmp);
    buf[n] = '\0';
    fclose(tmp);
    is_int(r, 0, "a graph that prints runs");
    is_str(buf, "hi [0, 1] 2.5\n", "prim::Print writes print()'s line");
}

/* ---- move semantics ---------------------------------------------------------------------- */
typedef struct HookLog {
    int n;
    uint64_t moved[8];
    unsigned refs[8];
    TsValue watch;             /* a value whose count the hook samples at aten::neg */
    unsigned watch_refs;
} HookLog;

static void log_hook(void *ctx, const TsNode *node, size_t n, const TsValue *in, uint64_t moved)
{
    HookLog *h = ctx;
    if (strcmp(node->kind, "aten::neg") == 0 && h->watch.tag != TS_TAG_NONE)
        h->watch_refs = ts_value_refcount(h->watch);
    if (strcmp(node->kind, "aten::len") != 0 || h->n >= 8 || n < 1)
        return;
    h->moved[h->n] = moved;
    h->refs[h->n++] = ts_value_refcount(in[0]);
}

static void test_moves(void)
{
    HookLog h;
    memset(&h, 0, sizeof h);
    ts_interp_set_hook(log_hook, &h);
    TsValue l = int_list(3);
    is_int(run_int("graph(%a : int[]):\n"
                   "  %n : int = aten::len(%a)\n"
                   "  %m : int = aten::len(%a)\n"
                   "  %s : int = aten::add(%n, %m)\n"
                   "  return (%s)\n", &l, 1), 6, "two uses of a list");
    ok(h.n == 2 && h.moved[0] == 0 && h.refs[0] == 2,
       "the first use copies (the register and the kernel hold it)");
    ok(h.n == 2 && h.moved[1] == 1 && h.refs[1] == 1,
       "the last use moves: only the kernel holds it");

    /* a value used in one branch dies at the start of the other */
    static const char branch[] =
        "graph(%a : int[], %c : bool):\n"
        "  %0 : int = prim::Constant[value=0]()\n"
        "  %r : int = prim::If(%c)\n"
        "    block0():\n"
        "      %n : int = aten::len(%a)\n"
        "      -> (%n)\n"
        "    block1():\n"
        "      -> (%0)\n"
        "  %z : int = aten::neg(%r)\n"
        "  return (%z)\n";
    for (int c = 0; c < 2; c++) {
        memset(&h, 0, sizeof h);
        TsValue lst = int_list(2);
        ts_value_retain(lst);
        h.watch = lst;
        TsValue args[2] = {lst, ts_bool(c)};
        is_int(run_int(branch, args, 2), c ? -2 : 0, "branch %d runs", c);
        is_int(h.watch_refs, 1, "after the If (%s branch) the interpreter holds no reference",
               c ? "using" : "other");
        is_int(ts_value_refcount(lst), 1, "and the caller's reference is the only one left");
        ts_value_release(lst);
    }

    /* a value used inside a loop lives through it and dies at its exit */
    static const char loop[] =
        "graph(%a : int[], %n : int):\n"
        "  %0 : int = prim::Constant[value=0]()\n"
        "  %t : bool = prim::Constant[value=1]()\n"
        "  %s : int = prim::Loop(%n, %t, %0)\n"
        "    block0(%i : int, %acc : int):\n"
        "      %k : int = aten::len(%a)\n"
        "      %acc2 : int = aten::add(%acc, %k)\n"
        "      -> (%t, %acc2)\n"
        "  %z : int = aten::neg(%s)\n"
        "  return (%z)\n";
    memset(&h, 0, sizeof h);
    TsValue lst = int_list(4);
    ts_value_retain(lst);
    h.watch = lst;
    TsValue args[2] = {lst, ts_int(3)};
    is_int(run_int(loop, args, 2), -12, "a loop reads a list defined outside it");
    ok(h.n == 3 && h.moved[0] == 0 && h.moved[1] == 0 && h.moved[2] == 0,
       "uses inside the loop never move the outer value");
    is_int(h.watch_refs, 1, "the value is dropped when the loop exits");
    ts_value_release(lst);
    ts_interp_set_hook(NULL, NULL);
}

/* ---- calls ------------------------------------------------------------------------------ */
static const char chain_f[] =
    "graph(%n : int, %l : int[]):\n"
    "  %0 : int = prim::Constant[value=0]()\n"
    "  %1 : int = prim::Constant[value=1]()\n"
    "  %5 : int = prim::Constant[value=5]()\n"
    "  %c : bool = aten::eq(%n, %0)\n"
    "  %r : int = prim::If(%c)\n"
    "    block0():\n"
    "      %x : int = aten::__getitem__(%l, %5)\n"
    "      -> (%x)\n"
    "    block1():\n"
    "      %m : int = aten::sub(%n, %1)\n"
    "      %s : int = prim::CallFunction[name=\"__torch__.f\"](%m, %l)\n"
    "      %k : int = aten::len(%l)\n"
    "      %t : int = aten::add(%s, %k)\n"
    "      -> (%t)\n"
    "  return (%r)\n";
static const char chain_main[] =
    "graph(%n : int, %l : int[]):\n"
    "  %r : int = prim::CallFunction[name=\"__torch__.f\"](%n, %l)\n"
    "  return (%r)\n";

static void test_calls(void)
{
    const char *names[] = {"main", "f"}, *texts[] = {chain_main, chain_f};
    TsCompUnit *u = unit_of(2, names, texts);
    if (!ok(u != NULL, "a unit of two functions"))
        return;
    TsError err = TS_ERROR_INIT;
    TsValue out, args[2] = {ts_int(10000), int_list(6)};
    int rc = run_main(u, args, 2, &out, &err);
    ok(!rc && out.tag == TS_TAG_INT && out.u.i == 5 + 6 * 10000,
       "a call chain 10000 frames deep");
    if (rc)
        diag("%s", err.msg);
    ts_error_clear(&err);

    TsValue l = int_list(2);
    ts_value_retain(l);
    TsValue a2[2] = {ts_int(3), l};
    rc = run_main(u, a2, 2, &out, &err);
    ok(rc != 0, "an error four calls deep fails the run");
    is_str(strstr(err.msg ? err.msg : "", "\nRuntimeError: list index out of range\n"),
           "\nRuntimeError: list index out of range\n", "the message ends with the exception");
    like(err.msg, "The following operation failed in the TorchScript interpreter.\n"
                  "Traceback of TorchScript (most recent call last):\n  File \"main\", line 2, in main\n",
         "the traceback starts at the outermost call");
    like(err.msg, "  File \"f\", line 8, in f\n", "and ends at the failing operation");
    int frames = 0;
    for (const char *p = err.msg; p && (p = strstr(p, "  File ")); p++)
        frames++;
    is_int(frames, 5, "one excerpt per frame");
    is_int(ts_value_refcount(l), 1, "unwinding released every frame's reference");
    ts_value_release(l);
    ts_error_clear(&err);

    TsValue deep[2] = {ts_int(TS_INTERP_MAX_DEPTH + 10), int_list(1)};
    rc = run_main(u, deep, 2, &out, &err);
    is_int(rc, TS_ERR_LIMIT, "unbounded recursion hits the depth limit");
    like(err.msg, "maximum recursion depth exceeded", "with a clear message");
    like(err.msg, "frames omitted", "and a traceback of bounded size");
    ts_error_clear(&err);

    TsValue few[1] = {ts_int(1)};
    rc = run_main(u, few, 1, &out, &err);
    is_int(rc, TS_ERR_TYPE, "a wrong argument count is refused");
    like(err.msg, "takes 2 arguments but 1 were given", "saying so");
    ts_error_clear(&err);
    ts_unit_free(u);

    const char *bn[] = {"main"}, *bt[] = {"graph(%x : int):\n"
                                          "  %r : int = prim::CallFunction[name=\"nope\"](%x)\n"
                                          "  return (%r)\n"};
    u = unit_of(1, bn, bt);
    TsValue one = ts_int(1);
    rc = run_main(u, &one, 1, &out, &err);
    ok(rc != 0, "a call of an unknown function fails when its Code is built");
    like(err.msg, "unknown function 'nope'", "naming the function");
    ts_error_clear(&err);
    ts_unit_free(u);
}

/* ---- exceptions -------------------------------------------------------------------------- */
static const char raise_g[] =
    "graph(%x : int, %l : int[]):\n"
    "  %3 : int = prim::Constant[value=3]()\n"
    "  %msg : str = prim::Constant[value=\"bad x\"]()\n"
    "  %cls : str = prim::Constant[value=\"builtins.ValueError\"]()\n"
    "  %c : bool = aten::gt(%x, %3)\n"
    "   = prim::If(%c)\n"
    "    block0():\n"
    "       = prim::RaiseException(%msg, %cls)\n"
    "      -> ()\n"
    "    block1():\n"
    "      -> ()\n"
    "  %n : int = aten::len(%l)\n"
    "  return (%n)\n";
static const char raise_main[] =
    "graph(%x : int):\n"
    "  %none : NoneType = prim::Constant()\n"
    "  %msg : str = prim::Constant[value=\"AssertionError: x is zero\"]()\n"
    "  %0 : int = prim::Constant[value=0]()\n"
    "  %l : int[] = prim::ListConstruct(%x, %x)\n"
    "  %z : bool = aten::eq(%x, %0)\n"
    "   = prim::If(%z)\n"
    "    block0():\n"
    "       = prim::RaiseException(%msg, %none)\n"
    "      -> ()\n"
    "    block1():\n"
    "      -> ()\n"
    "  %r : int = prim::CallFunction[name=\"__torch__.g\"](%x, %l)\n"
    "  %t : (int, int[]) = prim::TupleConstruct(%r, %l)\n"
    "  return (%t)\n";

static void test_raise(void)
{
    const char *names[] = {"main", "g"}, *texts[] = {raise_main, raise_g};
    TsCompUnit *u = unit_of(2, names, texts);
    if (!ok(u != NULL, "a unit that raises"))
        return;
    TsError err = TS_ERROR_INIT;
    TsValue out, x = ts_int(7);
    int rc = run_main(u, &x, 1, &out, &err);
    is_int(rc, TS_ERR_VALUE, "raise ValueError fails with the ValueError code");
    like(err.msg, "\nbuiltins.ValueError: bad x\n", "the exception line names its class");
    like(err.msg, "in main\n", "the traceback has the caller");
    like(err.msg, "line 8, in g\n", "and the raise");
    like(err.msg, "prim::RaiseException(%msg, %cls)\n", "with the source excerpt");
    ts_error_clear(&err);
    x = ts_int(0);
    rc = run_main(u, &x, 1, &out, &err);
    is_int(rc, TS_ERR_RUNTIME, "a failed assert is a RuntimeError, as in PyTorch");
    like(err.msg, "\nRuntimeError: AssertionError: x is zero\n", "with the assert's message");
    ts_error_clear(&err);
    x = ts_int(2);
    rc = run_main(u, &x, 1, &out, &err);
    ok(!rc && out.tag == TS_TAG_TUPLE && ((TsTuple *)out.u.p)->items[0].u.i == 2,
       "no raise when the condition is false");
    ts_value_release(out);
    ts_unit_free(u);
}

/* ---- fork and wait ----------------------------------------------------------------------- */
static const char fork_main[] =
    "graph(%n : int):\n"
    "  %0 : int = prim::Constant[value=0]()\n"
    "  %t : bool = prim::Constant[value=1]()\n"
    "  %futs : Future[int][] = prim::ListConstruct()\n"
    "   = prim::Loop(%n, %t)\n"
    "    block0(%i : int):\n"
    "      %f : Future[int] = prim::fork_0(%i)\n"
    "      %u : Future[int][] = aten::append(%futs, %f)\n"
    "      -> (%t)\n"
    "  %sum : int = prim::Loop(%n, %t, %0)\n"
    "    block0(%j : int, %acc : int):\n"
    "      %g : Future[int] = aten::__getitem__(%futs, %j)\n"
    "      %v : int = aten::wait(%g)\n"
    "      %acc2 : int = aten::add(%acc, %v)\n"
    "      -> (%t, %acc2)\n"
    "  return (%sum)\n"
    "with prim::fork_0 = graph(%x : int):\n"
    "  %r : int = prim::CallFunction[name=\"__torch__.work\"](%x)\n"
    "  return (%r)\n";
/* work(x) forks x*2 itself and waits for it (a nested wait inside a forked function);
 * x == 37 raises. */
static const char fork_work[] =
    "graph(%x : int):\n"
    "  %37 : int = prim::Constant[value=37]()\n"
    "  %msg : str = prim::Constant[value=\"unlucky 37\"]()\n"
    "  %cls : str = prim::Constant[value=\"builtins.RuntimeError\"]()\n"
    "  %c : bool = aten::eq(%x, %37)\n"
    "   = prim::If(%c)\n"
    "    block0():\n"
    "       = prim::RaiseException(%msg, %cls)\n"
    "      -> ()\n"
    "    block1():\n"
    "      -> ()\n"
    "  %f : Future[int] = prim::fork_0(%x)\n"
    "  %v : int = aten::wait(%f)\n"
    "  return (%v)\n"
    "with prim::fork_0 = graph(%y : int):\n"
    "  %2 : int = prim::Constant[value=2]()\n"
    "  %z : int = aten::mul(%y, %2)\n"
    "  return (%z)\n";

static void test_fork(void)
{
    const char *names[] = {"main", "work"}, *texts[] = {fork_main, fork_work};
    TsCompUnit *u = unit_of(2, names, texts);
    if (!ok(u != NULL, "a unit that forks"))
        return;
    TsError err = TS_ERROR_INIT;
    TsValue out, n = ts_int(30);
    int rc = run_main(u, &n, 1, &out, &err);
    ok(!rc && out.tag == TS_TAG_INT && out.u.i == 30 * 29, "30 forks, each forking and waiting");
    if (rc)
        diag("%s", err.msg);
    ts_error_clear(&err);
    for (int round = 0; round < 3; round++) {
        n = ts_int(500);
        rc = run_main(u, &n, 1, &out, &err);
        ok(rc != 0, "a failing forked function fails wait() (round %d)", round);
        like(err.msg, "RuntimeError: unlucky 37", "with its error");
        like(err.msg, "in work\n", "and its traceback");
        ts_error_clear(&err);
    }
    ts_unit_free(u);
}


/* ---- register sharing: values that must stay apart ------------------------------------ */
static void test_coalescing(void)
{
    /* a, b = b, a + b: the new b is computed while the old b is still needed */
    static const char fib[] =
        "graph(%n : int):\n"
        "  %0 : int = prim::Constant[value=0]()\n"
        "  %1 : int = prim::Constant[value=1]()\n"
        "  %t : bool = prim::Constant[value=1]()\n"
        "  %a : int, %b : int = prim::Loop(%n, %t, %0, %1)\n"
        "    block0(%i : int, %a.1 : int, %b.1 : int):\n"
        "      %s : int = aten::add(%a.1, %b.1)\n"
        "      -> (%t, %b.1, %s)\n"
        "  return (%a)\n";
    TsValue n = ts_int(10);
    is_int(run_int(fib, &n, 1), 55, "a loop swapping carried values (fib(10))");
    /* an If yielding an outer value in one branch and a new one in the other, the outer
       value used again after the If; a value computed from a constant on the left */
    static const char keep[] =
        "graph(%x : int):\n"
        "  %1 : int = prim::Constant[value=1]()\n"
        "  %100 : int = prim::Constant[value=100]()\n"
        "  %2.5 : float = prim::Constant[value=2.5]()\n"
        "  %c : bool = aten::gt(%x, %1)\n"
        "  %y : int = prim::If(%c)\n"
        "    block0():\n"
        "      %d : int = aten::sub(%100, %x)\n"
        "      -> (%d)\n"
        "    block1():\n"
        "      -> (%x)\n"
        "  %z : int = aten::mul(%y, %x)\n"
        "  %f : float = prim::Constant[value=0.5]()\n"
        "  %g : float = aten::mul(%f, %2.5)\n"
        "  %h : bool = aten::lt(%g, %2.5)\n"
        "  %k : int = prim::If(%h)\n"
        "    block0():\n"
        "      -> (%z)\n"
        "    block1():\n"
        "      -> (%1)\n"
        "  return (%k)\n";
    TsValue a = ts_int(3), b = ts_int(-2);
    is_int(run_int(keep, &a, 1), 97 * 3, "an If output next to a live outer value (then)");
    is_int(run_int(keep, &b, 1), 4, "an If output next to a live outer value (else)");
    /* nested loops: the inner loop's carried value starts from the outer one's */
    static const char nested[] =
        "graph(%n : int):\n"
        "  %0 : int = prim::Constant[value=0]()\n"
        "  %t : bool = prim::Constant[value=1]()\n"
        "  %s : int = prim::Loop(%n, %t, %0)\n"
        "    block0(%i : int, %s.1 : int):\n"
        "      %s.3 : int = prim::Loop(%i, %t, %s.1)\n"
        "        block0(%j : int, %s.2 : int):\n"
        "          %p : int = aten::mul(%i, %j)\n"
        "          %q : int = aten::add(%s.2, %p)\n"
        "          -> (%t, %q)\n"
        "      -> (%t, %s.3)\n"
        "  return (%s)\n";
    TsValue five = ts_int(5);
    /* sum over i < 5, j < i of i * j = 0 + 2 + (3+6) + (4+8+12) = 35 */
    is_int(run_int(nested, &five, 1), 35, "nested counted loops");
}

/* ---- list opcodes ------------------------------------------------------------------------- */
static const char list_ops[] =
    "graph(%l : int[], %i : int):\n"
    "  %e : int = aten::__getitem__(%l, %i)\n"
    "  %l2 : int[] = aten::append(%l, %e)\n"
    "  %n : int = aten::len(%l2)\n"
    "  %t : (int, int) = prim::TupleConstruct(%e, %n)\n"
    "  return (%t)\n";

static const char list_sum[] =
    "graph(%l : int[]):\n"
    "  %0 : int = prim::Constant[value=0]()\n"
    "  %t : bool = prim::Constant[value=1]()\n"
    "  %n : int = aten::len(%l)\n"
    "  %s : int = prim::Loop(%n, %t, %0)\n"
    "    block0(%i : int, %acc : int):\n"
    "      %x : int = aten::__getitem__(%l, %i)\n"
    "      %a : int = aten::add(%acc, %x)\n"
    "      -> (%t, %a)\n"
    "  return (%s)\n";

static void test_lists(void)
{
    TsValue l = int_list(4);
    ts_value_retain(l);
    TsValue args[2] = {l, ts_int(-1)}, out;
    TsError err = TS_ERROR_INIT;
    int rc = run1(list_ops, args, 2, &out, &err);
    TsTuple *t = rc ? NULL : (TsTuple *)out.u.p;
    ok(!rc && t->items[0].u.i == 3 && t->items[1].u.i == 5,
       "__getitem__ with a negative index, append and len on a list");
    TsList *lp = (TsList *)l.u.p;
    ok(lp->len == 5 && lp->items[4].u.i == 3, "append changed the caller's list");
    is_int(ts_value_refcount(l), 1, "and left only the caller's reference");
    ts_value_release(out);
    ts_value_release(l);

    TsValue bad[2] = {int_list(2), ts_int(2)};
    rc = run1(list_ops, bad, 2, &out, &err);
    ok(rc != 0, "an index past the end fails");
    like(err.msg, "\nRuntimeError: list index out of range\n", "with Python's message");
    ts_error_clear(&err);

    TsValue big = int_list(1000);
    is_int(run_int(list_sum, &big, 1), 999 * 1000 / 2, "a loop summing a list by index");

    const char *names[] = {"main"}, *texts[] = {list_ops};
    TsCompUnit *u = unit_of(1, names, texts);
    TsValue a2[2] = {int_list(1), ts_int(0)};
    run_main(u, a2, 2, &out, &err);
    ts_value_release(out);
    ts_error_clear(&err);
    char *dump = ts_code_dump(ts_unit_find(u, "__torch__.main")->code);
    ok(dump && strstr(dump, "LIST_GETITEM") && strstr(dump, "LIST_APPEND") &&
           strstr(dump, "LIST_LEN") && !strstr(dump, "KERNEL"),
       "list __getitem__, append and len have their own opcodes");
    free(dump);
    ts_unit_free(u);
}

/* ---- dict and str opcodes, an unused append ------------------------------------------------ */
static const char dict_ops[] =
    "graph(%d : Dict(str, int), %i : int):\n"
    "  %0 : int = prim::Constant[value=0]()\n"
    "  %k : str = aten::str(%i)\n"
    "  %g : int = aten::get(%d, %k, %0)\n"
    "  %s : int = aten::add(%g, %i)\n"
    "   = aten::_set_item(%d, %k, %s)\n"
    "  %r : int = aten::__getitem__(%d, %k)\n"
    "  return (%r)\n";

static const char append_loop[] =
    "graph(%l : int[], %n : int):\n"
    "  %t : bool = prim::Constant[value=1]()\n"
    "   = prim::Loop(%n, %t)\n"
    "    block0(%i : int):\n"
    "      %l2 : int[] = aten::append(%l, %i)\n"
    "      -> (%t)\n"
    "  %r : int = aten::len(%l)\n"
    "  return (%r)\n";

static const char str_of[] =
    "graph(%x : int):\n"
    "  %s : str = aten::str(%x)\n"
    "  return (%s)\n";

static void is_str_of(int64_t x, const char *want)
{
    TsValue arg = ts_int(x), out;
    TsError err = TS_ERROR_INIT;
    int rc = run1(str_of, &arg, 1, &out, &err);
    is_str(!rc && out.tag == TS_TAG_STR ? ((TsStr *)out.u.p)->data : err.msg, want,
           "str(%lld)", (long long)x);
    ts_error_clear(&err);
    if (!rc)
        ts_value_release(out);
}

static void no_hook(void *ctx, const TsNode *node, size_t n, const TsValue *in, uint64_t moved)
{
    (void)ctx, (void)node, (void)n, (void)in, (void)moved;
}

static void test_dicts_and_strs(void)
{
    TsError err = TS_ERROR_INIT;
    TsDict *d = ts_dict_new(ts_type_str(), ts_type_int(), &err);
    TsValue dv = ts_obj_value(d, TS_TAG_DICT), out;
    for (int64_t i = 1; i <= 3; i++) {
        ts_value_retain(dv);
        TsValue args[2] = {dv, ts_int(i * 10)};
        is_int(run_int(dict_ops, args, 2), i * 10, "d[str(i)] = d.get(str(i), 0) + i, read back");
    }
    ts_value_retain(dv);
    TsValue again[2] = {dv, ts_int(20)};
    is_int(run_int(dict_ops, again, 2), 40, "an existing key: get finds it, set replaces it");
    is_int((int64_t)ts_dict_len(d), 3, "three keys");
    TsValue v, k20 = ts_str_value(ts_str_from_cstr("20", &err));
    ok(ts_dict_get(d, k20, &v) && v.u.i == 40, "the dict the caller holds was changed");
    ts_value_release(k20);
    is_int(ts_value_refcount(dv), 1, "and only the caller holds it");

    /* getitem of a missing key: the kernel's KeyError */
    const char *miss = "graph(%d : Dict(str, int)):\n"
                       "  %k : str = prim::Constant[value=\"nope\"]()\n"
                       "  %r : int = aten::__getitem__(%d, %k)\n"
                       "  return (%r)\n";
    ts_value_retain(dv);
    int rc = run1(miss, &dv, 1, &out, &err);
    ok(rc != 0, "d[k] of a missing key fails");
    like(err.msg, "KeyError", "with a KeyError");
    ts_error_clear(&err);
    is_int(ts_value_refcount(dv), 1, "and releases what it held");

    const char *names[] = {"main"}, *texts[] = {dict_ops};
    TsCompUnit *u = unit_of(1, names, texts);
    ts_value_retain(dv);
    TsValue a2[2] = {dv, ts_int(5)};
    run_main(u, a2, 2, &out, &err);
    ts_error_clear(&err);
    char *dump = ts_code_dump(ts_unit_find(u, "__torch__.main")->code);
    ok(dump && strstr(dump, "DICT_GET_DEFAULT") && strstr(dump, "DICT_SETITEM") &&
           strstr(dump, "DICT_GETITEM") && strstr(dump, "STR ") && !strstr(dump, "KERNEL"),
       "dict get, set and getitem and str have their own opcodes");
    free(dump);
    ts_unit_free(u);

    /* with the hook set the kernels run instead, to the same result */
    ts_interp_set_hook(no_hook, NULL);
    ts_value_retain(dv);
    TsValue a3[2] = {dv, ts_int(5)};
    is_int(run_int(dict_ops, a3, 2), 10, "the kernel path agrees");
    ts_interp_set_hook(NULL, NULL);
    is_int(ts_value_refcount(dv), 1, "and leaves only the caller's reference");
    ts_value_release(dv);

    is_str_of(0, "0");
    is_str_of(-5, "-5");
    static const int64_t edges[] = {9, 10, 99, 100, 999999999, 1000000000, 4294967295,
                                    4294967296, 999999999999999999, 1000000000000000000};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        char want[24];
        snprintf(want, sizeof want, "%lld", (long long)edges[i]);
        is_str_of(edges[i], want);
        snprintf(want, sizeof want, "%lld", -(long long)edges[i]);
        is_str_of(-edges[i], want);
    }
    is_str_of(1234567890123, "1234567890123");
    is_str_of(INT64_MAX, "9223372036854775807");
    is_str_of(INT64_MIN, "-9223372036854775808");
    TsValue fl = ts_double(1.5);
    rc = run1("graph(%x : float):\n  %s : str = aten::str(%x)\n  return (%s)\n", &fl, 1, &out,
              &err);
    is_str(!rc ? ((TsStr *)out.u.p)->data : err.msg, "1.5", "str(1.5) by the kernel");
    if (!rc)
        ts_value_release(out);
    ts_error_clear(&err);

    for (int hooked = 0; hooked < 2; hooked++) {
        ts_interp_set_hook(hooked ? no_hook : NULL, NULL);
        TsValue l = int_list(0);
        ts_value_retain(l);
        TsValue args[2] = {l, ts_int(1000)};
        is_int(run_int(append_loop, args, 2), 1000, "appends whose result is unused%s",
               hooked ? ", through the kernel" : "");
        is_int(ts_value_refcount(l), 1, "... leave only the caller's reference");
        ok(((TsList *)l.u.p)->len == 1000 && ((TsList *)l.u.p)->items[999].u.i == 999,
           "... and fill the caller's list");
        ts_value_release(l);
    }
    ts_interp_set_hook(NULL, NULL);
    const char *an[] = {"main"}, *at[] = {append_loop};
    u = unit_of(1, an, at);
    TsValue a4[2] = {int_list(0), ts_int(1)};
    run_main(u, a4, 2, &out, &err);
    ts_error_clear(&err);
    dump = ts_code_dump(ts_unit_find(u, "__torch__.main")->code);
    ok(dump && strstr(dump, "LIST_APPEND") && !strstr(dump, "DROP"),
       "an unused append result is never stored, so never dropped");
    if (dump && strstr(dump, "DROP"))
        diag("%s", dump);
    free(dump);
    ts_unit_free(u);
}

/* An unused append to a list kept in its register is LIST_APPEND_R: an item moved at its
 * last use (str(i)), an item read again later (s), a constant; the list grows past its room
 * through the general path. References come out exact. */
static const char append_refs[] =
    "graph(%l : str[], %s : str, %n : int):\n"
    "  %t : bool = prim::Constant[value=1]()\n"
    "  %k : str = prim::Constant[value=\"k\"]()\n"
    "   = prim::Loop(%n, %t)\n"
    "    block0(%i : int):\n"
    "      %x : str = aten::str(%i)\n"
    "      %l1 : str[] = aten::append(%l, %x)\n"
    "      %l2 : str[] = aten::append(%l, %s)\n"
    "      %l3 : str[] = aten::append(%l, %k)\n"
    "      -> (%t)\n"
    "  %r : int = aten::len(%l)\n"
    "  return (%r)\n";

static void test_append_registers(void)
{
    TsError err = TS_ERROR_INIT;
    for (int hooked = 0; hooked < 2; hooked++) {
        ts_interp_set_hook(hooked ? no_hook : NULL, NULL);
        TsList *l = ts_list_new(ts_type_str(), 0, NULL);
        TsValue lv = ts_obj_value(l, TS_TAG_LIST);
        TsValue sv = ts_str_value(ts_str_from_cstr("shared", &err));
        ts_value_retain(lv);
        ts_value_retain(sv);
        TsValue args[3] = {lv, sv, ts_int(100)};
        is_int(run_int(append_refs, args, 3), 300, "appends of a moved item, a kept one and "
               "a constant%s", hooked ? ", through the kernel" : "");
        bool good = l->len == 300;
        for (size_t i = 0; good && i < 100; i++) {
            char want[8];
            snprintf(want, sizeof want, "%zu", i);
            good = !strcmp(((TsStr *)l->items[3 * i].u.p)->data, want) &&
                   l->items[3 * i + 1].u.p == sv.u.p &&
                   !strcmp(((TsStr *)l->items[3 * i + 2].u.p)->data, "k") &&
                   ts_value_refcount(l->items[3 * i]) == 1;
        }
        ok(good, "... in order, each str(i) held by the list alone");
        is_int(ts_value_refcount(sv), 101, "... the kept item once per append and the caller's");
        is_int(ts_value_refcount(lv), 1, "... the list the caller's alone");
        ts_value_release(lv);
        is_int(ts_value_refcount(sv), 1, "... and the list gave its references back");
        ts_value_release(sv);
    }
    ts_interp_set_hook(NULL, NULL);
    const char *an[] = {"main"}, *at[] = {append_refs};
    TsCompUnit *u = unit_of(1, an, at);
    TsValue a[3] = {ts_obj_value(ts_list_new(ts_type_str(), 0, NULL), TS_TAG_LIST),
                    ts_str_value(ts_str_from_cstr("s", &err)), ts_int(1)};
    TsValue out;
    if (run_main(u, a, 3, &out, &err))
        diag("error: %s", err.msg);
    ts_error_clear(&err);
    char *dump = ts_code_dump(ts_unit_find(u, "__torch__.main")->code);
    if (!dump)
        diag("no code");
    ok(dump && strstr(dump, "LIST_APPEND_R r0 r1\n") && strstr(dump, "(moved)") &&
           strstr(dump, "LIST_APPEND r0 c"),
       "the appends of registers are LIST_APPEND_R (the last use of str(i) moved), the "
       "str constant's the general op");
    if (dump && !strstr(dump, "(moved)"))
        diag("%s", dump);
    free(dump);
    ts_unit_free(u);
}

/* ---- default arguments ------------------------------------------------------------------- */
static void test_defaults(void)
{
    TsError err = TS_ERROR_INIT;
    size_t off = 0;
    TsCompUnit *u = ts_unit_new(&err);
    TsGraph *gf = ts_graph_parse("graph(%a : int, %b : int, %c : int):\n"
                                 "  %10 : int = prim::Constant[value=10]()\n"
                                 "  %m : int = aten::mul(%a, %10)\n"
                                 "  %s : int = aten::add(%m, %b)\n"
                                 "  %r : int = aten::mul(%s, %c)\n"
                                 "  return (%r)\n", "f", &err);
    TsSchema *sf = ts_schema_parse("f(int a, int b=5, int c=2) -> int", "__torch__", &off, &err);
    TsGraph *gm = ts_graph_parse("graph(%x : int):\n"
                                 "  %3 : int = prim::Constant[value=3]()\n"
                                 "  %p : int = prim::CallFunction[name=\"__torch__.f\"](%x)\n"
                                 "  %q : int = prim::CallFunction[name=\"__torch__.f\"](%x, %3)\n"
                                 "  %r : int = aten::add(%p, %q)\n"
                                 "  return (%r)\n", "main", &err);
    if (!ok(u && gf && sf && gm && ts_unit_add_function(u, "__torch__.f", gf, sf, NULL, &err) &&
                ts_unit_add_function(u, "__torch__.main", gm, NULL, NULL, &err),
            "a function with default arguments")) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return;
    }
    TsValue x = ts_int(4), out;
    int rc = run_main(u, &x, 1, &out, &err);
    ok(!rc && out.u.i == (45 * 2) + (43 * 2), "calls leaving arguments out get their defaults");
    if (rc)
        diag("%s", err.msg);
    ts_error_clear(&err);
    ts_unit_free(u);

    const char *names[] = {"main", "g"};
    const char *texts[] = {"graph(%x : int):\n"
                           "  %r : int = prim::CallFunction[name=\"__torch__.g\"](%x)\n"
                           "  return (%r)\n",
                           "graph(%a : int, %b : int):\n  return (%a)\n"};
    u = unit_of(2, names, texts);
    rc = run_main(u, &x, 1, &out, &err);
    ok(rc != 0, "leaving out an argument without a default fails");
    like(err.msg, "expects 2 arguments but the call passes 1", "saying so");
    ts_error_clear(&err);
    ts_unit_free(u);
}

/* ---- with-statements ------------------------------------------------------------------------ */
static const char ctx_enter[] =
    "graph(%self : __torch__.K2Ctx):\n"
    "  %1 : int = prim::Constant[value=1]()\n"
    "  %v : int = prim::GetAttr[name=\"v\"](%self)\n"
    "  %w : int = aten::add(%v, %1)\n"
    "   = prim::SetAttr[name=\"v\"](%self, %w)\n"
    "  return (%w)\n";
static const char ctx_exit[] =
    "graph(%self : __torch__.K2Ctx, %a : Any, %b : Any, %c : Any):\n"
    "  %10 : int = prim::Constant[value=10]()\n"
    "  %v : int = prim::GetAttr[name=\"v\"](%self)\n"
    "  %w : int = aten::sub(%v, %10)\n"
    "   = prim::SetAttr[name=\"v\"](%self, %w)\n"
    "  %n : NoneType = prim::Constant()\n"
    "  return (%n)\n";
/* PyTorch 1.13's graph of
 *     def main(c: Ctx, x: int) -> int:
 *         with c as y:
 *             if x > 2: raise ValueError("boom")
 *             z = y * 2
 *         return z + c.v                          */
static const char with_main[] =
    "graph(%c : __torch__.K2Ctx, %x : int):\n"
    "  %2 : int = prim::Constant[value=2]()\n"
    "  %msg : str = prim::Constant[value=\"boom\"]()\n"
    "  %cls : str = prim::Constant[value=\"builtins.ValueError\"]()\n"
    "  %y : int = prim::Enter(%c)\n"
    "  %b : bool = aten::gt(%x, %2)\n"
    "   = prim::If(%b)\n"
    "    block0():\n"
    "       = prim::RaiseException(%msg, %cls)\n"
    "      -> ()\n"
    "    block1():\n"
    "      -> ()\n"
    "  %z : int = aten::mul(%y, %2)\n"
    "  %e : Tensor = prim::Exit(%c)\n"
    "  %v : int = prim::GetAttr[name=\"v\"](%c)\n"
    "  %r : int = aten::add(%z, %v)\n"
    "  return (%r)\n";

static void test_with(void)
{
    TsError err = TS_ERROR_INIT;
    TsType *cls = ts_type_class_new("__torch__.K2Ctx", false, &err);
    if (!ok(cls && !ts_type_class_add_attr(cls, "v", ts_type_int(), &err), "a class K2Ctx")) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return;
    }
    TsCompUnit *u = ts_unit_new(&err);
    TsGraph *ge = ts_graph_parse(ctx_enter, "enter", &err);
    TsGraph *gx = ge ? ts_graph_parse(ctx_exit, "exit", &err) : NULL;
    TsGraph *gm = gx ? ts_graph_parse(with_main, "main", &err) : NULL;
    if (!ok(u && gm && ts_unit_add_class(u, cls, &err) == 0 &&
                ts_unit_add_function(u, "__torch__.K2Ctx.__enter__", ge, NULL, cls, &err) &&
                ts_unit_add_function(u, "__torch__.K2Ctx.__exit__", gx, NULL, cls, &err) &&
                ts_unit_add_function(u, "__torch__.main", gm, NULL, NULL, &err),
            "a unit with __enter__ and __exit__")) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        ts_unit_free(u);
        return;
    }
    TsObject *o = ts_object_new(cls, &err);
    o->slots[0] = ts_int(3);
    TsValue ov = ts_obj_value(o, TS_TAG_OBJECT), out;
    ts_value_retain(ov);
    TsValue args[2] = {ov, ts_int(1)};
    int rc = run_main(u, args, 2, &out, &err);
    /* enter: v = 4, y = 4, z = 8; exit: v = -6 */
    ok(!rc && out.u.i == 2, "with runs __enter__, binds its result and runs __exit__");
    if (rc)
        diag("%s", err.msg);
    ts_error_clear(&err);
    is_int(o->slots[0].u.i, -6, "both changed the object");

    o->slots[0] = ts_int(3);
    ts_value_retain(ov);
    TsValue args2[2] = {ov, ts_int(5)};
    rc = run_main(u, args2, 2, &out, &err);
    ok(rc != 0, "an exception inside the with block fails the run");
    like(err.msg, "\nbuiltins.ValueError: boom\n", "with its own exception");
    is_int(o->slots[0].u.i, 4 - 10, "__exit__ still ran, as in PyTorch");
    is_int(ts_value_refcount(ov), 1, "and nothing holds the object any more");
    ts_error_clear(&err);
    ts_value_release(ov);
    ts_unit_free(u);
}

int main(void)
{
    setenv("TSCRIPT_NUM_THREADS", "2", 1);
    TsError err = TS_ERROR_INIT;
    rt = ts_runtime_open(NULL, &err);
    if (!ok(rt != NULL, "the default runtime opens")) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return done_testing();
    }
    test_arith();
    test_imm_arith();
    test_pow2_arith();
    test_append_registers();
    test_imm_jumps();
    test_inc_jumps();
    test_rem_jumps();
    test_thread_jumps();
    test_control();
    test_many_carried(3, 10);
    test_many_carried(40, 1001);
    test_print();
    test_moves();
    test_calls();
    test_raise();
    test_fork();
    test_coalescing();
    test_lists();
    test_dicts_and_strs();
    test_defaults();
    test_with();
    ts_threadpool_shutdown();
    ts_runtime_close(rt);
    return done_testing();
}
