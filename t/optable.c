/* optable.t — the operator table: exact lookups, overload lists in declaration order,
 * iteration order, kernel lookup with the backend-independent fallback, duplicate kernels,
 * and merging a staged table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry/optable.h"
#include "tap.h"

static int dummy_a(TsCall *c) { return 0; }
static int dummy_b(TsCall *c) { return 1; }

static int add(TsOpTable *t, const char *text, const char *plugin)
{
    TsError err = TS_ERROR_INIT;
    size_t off;
    TsSchema *s = ts_schema_parse(text, "aten", &off, &err);
    if (!s) {
        diag("cannot parse '%s': %s", text, err.msg);
        ts_error_clear(&err);
        return -1;
    }
    int rc = ts_optable_add(t, s, plugin, "test", &err);
    if (rc) {
        ts_schema_free(s);
        diag("add '%s': %s", text, err.msg);
    }
    ts_error_clear(&err);
    return rc;
}

static void test_lookups(void)
{
    TsError err = TS_ERROR_INIT;
    TsOpTable *t = ts_optable_new(&err);
    is_int(ts_optable_size(t), 0, "a new table is empty");
    ok(ts_optable_find(t, "aten::add", "Tensor") == NULL, "lookup in an empty table");
    const TsOperator *ops[8];
    is_int(ts_optable_overloads(t, "aten::add", ops, 8), 0, "no overloads in an empty table");

    ok(add(t, "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", "p1") == 0,
       "add aten::add.Tensor");
    ok(add(t, "aten::mul(Tensor self, Tensor other) -> Tensor", "p1") == 0, "add aten::mul");
    ok(add(t, "add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", "p2") == 0,
       "add aten::add.Scalar");
    ok(add(t, "prim::add(int a, int b) -> int", "p2") == 0, "add prim::add");
    ok(add(t, "add(int a, int b) -> int", "p2") == 0, "add aten::add (default overload)");
    is_int(ts_optable_size(t), 5, "five operators");

    const TsOperator *op = ts_optable_find(t, "aten::add", "Tensor");
    ok(op && strcmp(op->schema->overload, "Tensor") == 0, "find aten::add.Tensor");
    is_str(op ? op->plugin : NULL, "p1", "the declaring plugin is kept");
    char where[64] = "";
    if (op)
        ts_operator_source(op, where, sizeof where);
    is_str(where, "test", "and where it was declared");
    op = ts_optable_find(t, "aten::add", "");
    ok(op && op->schema->n_args == 2, "find the default overload with \"\"");
    ok(ts_optable_find(t, "aten::add", NULL) == op, "NULL overload means the default");
    ok(ts_optable_find(t, "aten::add", "Int") == NULL, "unknown overload");
    ok(ts_optable_find(t, "aten::ad", "") == NULL, "unknown name");
    ok(ts_optable_find(t, "prim::add", "") != NULL, "names differ by namespace");

    size_t n = ts_optable_overloads(t, "aten::add", ops, 8);
    is_int(n, 3, "aten::add has three overloads");
    if (n == 3) {
        is_str(ops[0]->schema->overload, "Tensor", "overloads in declaration order (1)");
        is_str(ops[1]->schema->overload, "Scalar", "overloads in declaration order (2)");
        is_str(ops[2]->schema->overload, "", "overloads in declaration order (3)");
    }
    is_int(ts_optable_overloads(t, "aten::add", ops, 2), 2, "overloads are capped at max");

    const char *order[] = { "aten::add.Tensor", "aten::mul", "aten::add.Scalar", "prim::add",
                            "aten::add" };
    size_t pos = 0, i = 0;
    int in_order = 1;
    while (ts_optable_next(t, &pos, &op)) {
        char name[128];
        ts_operator_full_name(op, name, sizeof name);
        if (i >= 5 || strcmp(name, order[i]) != 0)
            in_order = 0;
        i++;
    }
    ok(in_order && i == 5, "iteration in declaration order");

    ok(add(t, "aten::mul(Tensor self, Tensor other) -> Tensor", "p3") != 0,
       "the same name and overload cannot be added twice");
    is_int(ts_optable_size(t), 5, "the table is unchanged");
    ts_optable_free(t);
}

static void test_kernels(void)
{
    TsError err = TS_ERROR_INIT;
    TsOpTable *t = ts_optable_new(&err);
    add(t, "aten::mul(Tensor self, Tensor other) -> Tensor", "p1");
    add(t, "prim::len(t[] a) -> int", "p1");
    TsOperator *mul = ts_optable_find_mut(t, "aten::mul", "");
    TsOperator *len = ts_optable_find_mut(t, "prim::len", "");
    ok(ts_operator_kernel(mul, "cpu") == NULL, "no kernel yet");

    is_int(ts_operator_add_kernel(mul, "cpu", dummy_a, NULL, "cpu-plugin", &err), 0,
           "add a cpu kernel");
    is_int(ts_operator_add_kernel(mul, "cuda", dummy_b, NULL, "cuda-plugin", &err), 0,
           "add a cuda kernel");
    is_int(ts_operator_add_kernel(len, TS_BACKEND_ANY, dummy_a, NULL, "prim", &err), 0,
           "add a backend-independent kernel");

    const TsKernelEntry *k = ts_operator_kernel(mul, "cpu");
    ok(k && k->fn == dummy_a, "cpu kernel found");
    is_str(k ? k->plugin : NULL, "cpu-plugin", "its plugin is kept");
    k = ts_operator_kernel(mul, "cuda");
    ok(k && k->fn == dummy_b, "cuda kernel found");
    ok(ts_operator_kernel(mul, "xpu") == NULL, "no kernel and no fallback for xpu");
    k = ts_operator_kernel(len, "cuda");
    ok(k && k->fn == dummy_a, "a backend falls back to the 'any' kernel");
    ok(ts_operator_kernel_exact(len, "cuda") == NULL, "but not for an exact lookup");

    is_int(ts_operator_add_kernel(len, "cpu", dummy_b, NULL, "fast-prim", &err), 0,
           "a backend's own kernel beside 'any'");
    k = ts_operator_kernel(len, "cpu");
    ok(k && k->fn == dummy_b, "the backend's own kernel wins over 'any'");

    is_int(ts_operator_add_kernel(mul, "cpu", dummy_b, NULL, "other", &err), TS_ERR_PLUGIN,
           "a second cpu kernel is an error");
    like(err.msg, "plugin 'other' registers a second kernel for aten::mul on backend 'cpu'",
         "the message names the new plugin");
    like(err.msg, "plugin 'cpu-plugin' registered the first", "and the first one");
    ts_error_clear(&err);
    is_int(mul->n_kernels, 2, "the failed kernel is not added");
    ts_optable_free(t);
}

static void test_merge_and_growth(void)
{
    TsError err = TS_ERROR_INIT;
    TsOpTable *t = ts_optable_new(&err), *staged = ts_optable_new(&err);
    add(t, "aten::mul(Tensor self, Tensor other) -> Tensor", "p1");
    add(staged, "aten::mul.Scalar(Tensor self, Scalar other) -> Tensor", "p2");
    add(staged, "test::f(int x) -> int", "p2");
    is_int(ts_optable_merge(t, staged, &err), 0, "merge a staged table");
    is_int(ts_optable_size(t), 3, "the table has both");
    is_int(ts_optable_size(staged), 0, "the staged table is empty after the merge");
    const TsOperator *ops[4];
    is_int(ts_optable_overloads(t, "aten::mul", ops, 4), 2, "overloads across a merge");
    ok(ts_optable_find(staged, "test::f", "") == NULL, "lookups in the emptied staged table");

    add(staged, "test::g(int x) -> int", "p3");
    add(staged, "test::f(int x) -> int", "p3");
    is_int(ts_optable_merge(t, staged, &err), TS_ERR_PLUGIN, "a clashing merge fails");
    like(err.msg, "test::f is already declared", "naming the operator");
    ts_error_clear(&err);
    is_int(ts_optable_size(t), 3, "and moves nothing");
    ok(ts_optable_find(t, "test::g", "") == NULL, "not even the operators that did not clash");
    ts_optable_free(staged);

    /* enough operators to grow the indexes several times */
    int all = 1;
    for (int i = 0; i < 1000; i++) {
        char text[128];
        snprintf(text, sizeof text, "grow::op%d.ov%d(int x) -> int", i % 300, i);
        all &= add(t, text, "grow") == 0;
    }
    ok(all, "1000 more operators");
    int found = 1;
    for (int i = 0; i < 1000; i++) {
        char name[64], ov[64];
        snprintf(name, sizeof name, "grow::op%d", i % 300);
        snprintf(ov, sizeof ov, "ov%d", i);
        const TsOperator *op = ts_optable_find(t, name, ov);
        found &= op && strcmp(op->schema->overload, ov) == 0;
    }
    ok(found, "every one is found after the table grew");
    const TsOperator *many[8];
    size_t n = ts_optable_overloads(t, "grow::op7", many, 8);
    is_int(n, 4, "grow::op7 has 4 overloads");
    ok(n == 4 && strcmp(many[0]->schema->overload, "ov7") == 0 &&
           strcmp(many[3]->schema->overload, "ov907") == 0,
       "still in declaration order");
    ts_optable_free(t);
}

int main(void)
{
    test_lookups();
    test_kernels();
    test_merge_and_growth();
    ts_types_shutdown();
    return done_testing();
}
