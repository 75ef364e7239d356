/* t/filecheck.c — FileCheck directives, their PyTorch semantics, and failure reports. */
#include <stdlib.h>
#include <string.h>

#include "ir/filecheck.h"
#include "ir/ir.h"
#include "tap.h"

static const char *input =
    "graph(%x : Tensor):\n"
    "  %1 : int = prim::Constant[value=1]()\n"
    "  %2 : Tensor = aten::add(%x, %x, %1)\n"
    "  %3 : Tensor = aten::mul(%2, %2)\n"
    "  return (%3)\n";

static TsError err = TS_ERROR_INIT;

/* Runs the text-form checks on input; returns the error code, leaving the message in err. */
static int run_text(const char *checks, const char *text)
{
    ts_error_clear(&err);
    return ts_filecheck_run_text(checks, text, &err);
}

static TsFileCheck *fc_new(void)
{
    ts_error_clear(&err);
    return ts_filecheck_new();
}

static int fc_run(TsFileCheck *fc)
{
    int rc = ts_filecheck_run(fc, input, &err);
    ts_filecheck_free(fc);
    return rc;
}

static void test_builder(void)
{
    TsFileCheck *fc = fc_new();
    ts_filecheck_check(fc, TS_CHECK, "aten::sub");
    is_int(fc_run(fc), TS_ERR_RUNTIME, "CHECK of an absent string fails");
    like(err.msg, "Expected to find \"aten::sub\" but did not find it\nSearched string:\n"
         "graph(%x : Tensor):\n~~~~~~~~~ <--- HERE\n  %1 : int", "report shows where it looked");
    like(err.msg, "\nFrom CHECK: aten::sub", "report names the directive");

    fc = fc_new();
    ts_filecheck_check(fc, TS_CHECK, "aten::add");
    ts_filecheck_check(fc, TS_CHECK_NEXT, "aten::mul");
    ts_filecheck_check(fc, TS_CHECK_SAME, "%2, %2");
    ts_filecheck_check(fc, TS_CHECK_NEXT, "return");
    is_int(fc_run(fc), 0, "CHECK, CHECK-NEXT, CHECK-SAME in order");

    fc = fc_new();
    ts_filecheck_check(fc, TS_CHECK, "aten::mul");
    ts_filecheck_check(fc, TS_CHECK_NEXT, "aten::add");
    is_int(fc_run(fc), TS_ERR_RUNTIME, "CHECK-NEXT does not look backwards");
    like(err.msg, "From CHECK-NEXT: aten::add", "names CHECK-NEXT");

    fc = fc_new();
    ts_filecheck_check(fc, TS_CHECK, "aten::add");
    ts_filecheck_check(fc, TS_CHECK_NEXT, "return");
    is_int(fc_run(fc), TS_ERR_RUNTIME, "CHECK-NEXT two lines on fails");
    like(err.msg, "Expected to find \"return\" on the line after the previous match but "
         "found it on a later line", "says it was on a later line");
    like(err.msg, "  return (%3)\n  ~~~~~~ <--- HERE", "marks where it was");

    fc = fc_new();
    ts_filecheck_check(fc, TS_CHECK, "aten::add");
    ts_filecheck_check(fc, TS_CHECK_SAME, "%x");
    is_int(fc_run(fc), 0, "CHECK-SAME on the same line");

    fc = fc_new();
    ts_filecheck_check(fc, TS_CHECK, "aten::add");
    ts_filecheck_check(fc, TS_CHECK_SAME, "%3");
    is_int(fc_run(fc), TS_ERR_RUNTIME, "CHECK-SAME on a later line fails");
    like(err.msg, "on the line of the previous match", "CHECK-SAME report");
    like(err.msg, "From CHECK-SAME: %3", "names CHECK-SAME");

    fc = fc_new();
    ts_filecheck_check(fc, TS_CHECK, "prim::Constant");
    ts_filecheck_check(fc, TS_CHECK_NOT, "aten::add");
    ts_filecheck_check(fc, TS_CHECK, "aten::mul");
    is_int(fc_run(fc), TS_ERR_RUNTIME, "CHECK-NOT between two matches");
    like(err.msg, "Expected to not find \"aten::add\" but found it\n"
         "graph(%x : Tensor):\n"
         "  %1 : int = prim::Constant[value=1]()\n"
         "  %2 : Tensor = aten::add(%x, %x, %1)\n"
         "                ~~~~~~~~~ <--- HERE\n"
         "  %3 : Tensor = aten::mul(%2, %2)\n"
         "  return (%3)\n"
         "From CHECK-NOT: aten::add", "CHECK-NOT report with context and marker");

    fc = fc_new();
    ts_filecheck_check(fc, TS_CHECK, "aten::add");
    ts_filecheck_check(fc, TS_CHECK_NOT, "aten::mul");
    ts_filecheck_check(fc, TS_CHECK_NOT, "prim::Constant");
    ts_filecheck_check(fc, TS_CHECK, "return");
    is_int(fc_run(fc), TS_ERR_RUNTIME, "a group of CHECK-NOTs");
    like(err.msg, "From CHECK-NOT: aten::mul", "the first NOT that matches is reported");

    fc = fc_new();
    ts_filecheck_check(fc, TS_CHECK, "aten::mul");
    ts_filecheck_check(fc, TS_CHECK_NOT, "aten::add");
    is_int(fc_run(fc), 0, "a trailing CHECK-NOT looks only after the last match");

    fc = fc_new();
    ts_filecheck_check(fc, TS_CHECK, "aten::add");
    ts_filecheck_check(fc, TS_CHECK_NOT, "aten::mul");
    is_int(fc_run(fc), TS_ERR_RUNTIME, "a trailing CHECK-NOT looks to the end");

    fc = fc_new();
    ts_filecheck_check(fc, TS_CHECK_NOT, "aten::sub");
    is_int(fc_run(fc), 0, "CHECK-NOT alone passes when absent");

    fc = fc_new();
    ts_filecheck_check_count(fc, "%2", 3, false);
    is_int(fc_run(fc), 0, "CHECK-COUNT-3");
    fc = fc_new();
    ts_filecheck_check_count(fc, "%2", 4, false);
    is_int(fc_run(fc), TS_ERR_RUNTIME, "CHECK-COUNT-4 of 3 fails");
    like(err.msg, "From CHECK-COUNT-4: %2", "names CHECK-COUNT-4");
    fc = fc_new();
    ts_filecheck_check_count(fc, "%2", 2, true);
    is_int(fc_run(fc), TS_ERR_RUNTIME, "CHECK-COUNT-EXACTLY-2 of 3 fails");
    like(err.msg, "Expected to not find \"%2\" but found it", "the third is reported");
    like(err.msg, "From CHECK-COUNT-EXACTLY-2: %2", "names CHECK-COUNT-EXACTLY-2");
    fc = fc_new();
    ts_filecheck_check_count(fc, "%2", 3, true);
    ts_filecheck_check(fc, TS_CHECK, "return");
    is_int(fc_run(fc), 0, "CHECK-COUNT-EXACTLY-3 then CHECK");
    fc = fc_new();
    ts_filecheck_check_count(fc, "%9", 0, true);
    is_int(fc_run(fc), 0, "CHECK-COUNT-EXACTLY-0 of an absent string");
    fc = fc_new();
    ts_filecheck_check_count(fc, "aten", 0, true);
    is_int(fc_run(fc), TS_ERR_RUNTIME, "CHECK-COUNT-EXACTLY-0 of a present string fails");

    fc = fc_new();
    ts_filecheck_check(fc, TS_CHECK_DAG, "aten::mul");
    ts_filecheck_check(fc, TS_CHECK_DAG, "aten::add");
    ts_filecheck_check(fc, TS_CHECK, "return");
    is_int(fc_run(fc), 0, "CHECK-DAGs in any order");
    fc = fc_new();
    ts_filecheck_check(fc, TS_CHECK_DAG, "aten::mul");
    ts_filecheck_check(fc, TS_CHECK_DAG, "aten::add");
    ts_filecheck_check(fc, TS_CHECK, "prim::Constant");
    is_int(fc_run(fc), TS_ERR_RUNTIME, "the next CHECK starts after the whole DAG group");
    fc = fc_new();
    ts_filecheck_check(fc, TS_CHECK_DAG, "aten::mul");
    ts_filecheck_check(fc, TS_CHECK_DAG, "aten::sub");
    is_int(fc_run(fc), TS_ERR_RUNTIME, "a missing CHECK-DAG fails");
    like(err.msg, "From CHECK-DAG: aten::sub", "names CHECK-DAG");
    fc = fc_new();
    ts_filecheck_check(fc, TS_CHECK_DAG, "aten::mul");
    ts_filecheck_check(fc, TS_CHECK_NOT, "prim::Constant");
    ts_filecheck_check(fc, TS_CHECK_DAG, "return");
    is_int(fc_run(fc), 0, "DAG, NOT, DAG: the NOT covers only the gap");

    TsFileCheck *bad = fc_new();
    ok(ts_filecheck_check(bad, TS_CHECK_COUNT, "x") != 0, "CHECK-COUNT via check refused");
    ok(ts_filecheck_check(bad, TS_CHECK, "") != 0, "empty string refused");
    ts_filecheck_check(bad, TS_CHECK, "graph");
    is_int(fc_run(bad), TS_ERR_USAGE, "the run reports the first bad call");
    like(err.msg, "ts_filecheck_check_count", "and says what was wrong");
    bad = fc_new();
    ok(ts_filecheck_check_count(bad, "x", 0, false) != 0, "CHECK-COUNT-0 refused");
    is_int(fc_run(bad), TS_ERR_USAGE, "reported by the run");
    like(err.msg, "CHECK-COUNT-0 checks nothing", "with the reason");
    is_int(fc_run(fc_new()), TS_ERR_USAGE, "no checks at all is an error");
    ok(ts_filecheck_check(NULL, TS_CHECK, "x") != 0, "NULL checker refused");
}

static void test_text(void)
{
    is_int(run_text("# CHECK: aten::add\n# CHECK-NEXT: aten::mul\n#CHECK-COUNT-2: %2\n",
                    input), 0, "text form: CHECK, CHECK-NEXT, #CHECK-COUNT-2 (no blank)");
    is_int(run_text("x = 1  # CHECK: aten::add\n"
                    "# a comment that is not a check\n"
                    "#\tCHECK-NEXT: aten::mul\n"
                    "#  CHECK-COUNT-EXACTLY-2: %2\n"
                    "# CHECK-SAME: )\n"
                    "# CHECK-DAG: return\n"
                    "# CHECK-NOT: aten::\n", input), 0,
       "text form: all directives, other comments ignored");
    is_int(run_text("# CHECK-NOT: aten::add\n", input), TS_ERR_RUNTIME,
           "text form: CHECK-NOT fails");
    like(err.msg, "From CHECK-NOT: aten::add", "text form: names the directive");
    is_int(run_text("# CHECK: aten::add(%x, %x, %1)  \n", input), TS_ERR_RUNTIME,
           "the string runs to the end of the line, trailing blanks included");

    is_int(run_text("foo\n", input), TS_ERR_USAGE, "no directives: error");
    like(err.msg, "no checks", "says there were none");
    is_int(run_text("# CHECK: a\n# CHECK-FOO: x\n", input), TS_ERR_SYNTAX, "unknown directive");
    like(err.msg, "could not parse the check on line 2:\n# CHECK: a\n# CHECK-FOO: x\n"
         "       ~ <--- HERE",
         "parse error names the line and marks it");
    is_int(run_text("# CHECK-COUNT-x: x\n", input), TS_ERR_SYNTAX, "CHECK-COUNT without count");
    is_int(run_text("# CHECK-COUNT-3 x\n", input), TS_ERR_SYNTAX, "CHECK-COUNT without ': '");
    is_int(run_text("# CHECK-COUNT-99999999999999999999999: x\n", input), TS_ERR_SYNTAX,
           "CHECK-COUNT count overflow");
    is_int(run_text("# CHECK:aten::add\n", input), TS_ERR_SYNTAX, "CHECK: needs the blank");
    is_int(run_text("\n# CHECK: \n", input), TS_ERR_USAGE, "empty string refused");
    like(err.msg, "line 2:", "with its line");
    is_int(run_text("# CHECK-COUNT-0: x\n", input), TS_ERR_USAGE, "CHECK-COUNT-0 refused");
    is_int(run_text("# CHECK: x", "x"), 0, "last line without newline");

    is_int(run_text("# CHECK: b\n# CHECK-NEXT: c\n", "a\nb"), TS_ERR_RUNTIME,
           "CHECK-NEXT with no next line");
    is_int(run_text("# CHECK: end\n# CHECK: more\n", "the end\n"), TS_ERR_RUNTIME,
           "failure at the end of the input");
    like(err.msg, "Searched string:\nthe end\n       ~ <--- HERE", "marks the end of the input");
    is_int(run_text("# CHECK: \"q\"\n", "a\tb"), TS_ERR_RUNTIME, "quoted in the report");
    like(err.msg, "Expected to find \"\\\"q\\\"\"", "quotes are escaped");
}

static void test_graph(void)
{
    ts_error_clear(&err);
    TsGraph *g = ts_graph_parse(input, "g.ir", &err);
    ok(g != NULL, "parse the input as a graph");
    if (!g) {
        diag("%s", err.msg);
        return;
    }
    is_int(ts_filecheck_run_text_graph("# CHECK: prim::Constant[value=1]\n"
                                       "# CHECK-NEXT: aten::add(%x, %x, %1)\n"
                                       "# CHECK-NOT: aten::sub\n"
                                       "# CHECK: return (%3)\n", g, &err), 0,
           "text checks on a printed graph");
    TsFileCheck *fc = ts_filecheck_new();
    ts_filecheck_check(fc, TS_CHECK, "aten::mul");
    ts_filecheck_check(fc, TS_CHECK_NEXT, "aten::add");
    is_int(ts_filecheck_run_graph(fc, g, &err), TS_ERR_RUNTIME, "builder checks on a graph");
    like(err.msg, "From CHECK-NEXT: aten::add", "graph failure report");
    ts_filecheck_free(fc);
    ts_error_clear(&err);
    is_int(ts_filecheck_run_text_graph("# CHECK: x\n", NULL, &err), TS_ERR_USAGE, "no graph");
    ts_graph_free(g);
}

int main(void)
{
    test_builder();
    test_text();
    test_graph();
    ts_error_clear(&err);
    ts_symbols_shutdown();
    return done_testing();
}
