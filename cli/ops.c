/* ops.c — `tscript ops [PATTERN]`: the operator table as the loaded plugins made it.
 *
 * One line per operator: the declaring plugin and the backends with a kernel in aligned
 * columns, then the schema,
 *
 *     aten-cpu  cpu   aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
 *
 * A backend whose kernel another plugin registered (a backend plugin's kernel for an
 * operator it does not declare, or one that replaced the declarer's: aten-dnnl's
 * convolutions) names that plugin, "cpu(aten-dnnl)": the plugin whose kernel runs.
 *
 * PATTERN is a substring of the name, or a glob (fnmatch) of the name or the full name
 * with its overload. A PATTERN that matches nothing exits 1.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static bool is_glob(const char *p) { return strpbrk(p, "*?[") != NULL; }

static bool op_matches(const TsOperator *op, const char *pattern)
{
    if (!pattern)
        return true;
    const char *name = ts_operator_name(op), *overload = ts_operator_overload(op);
    if (!is_glob(pattern))
        return strstr(name, pattern) != NULL;
    char full[512];
    snprintf(full, sizeof full, "%s%s%s", name, *overload ? "." : "", overload);
    return fnmatch(pattern, name, 0) == 0 || fnmatch(pattern, full, 0) == 0;
}

/* "cpu,cuda" (a backend with another plugin's kernel: "cpu(aten-dnnl)"), or "-" when
 * nothing implements the operator yet. */
static void backends(const TsOperator *op, char *buf, size_t size)
{
    size_t used = 0, n = ts_operator_num_kernels(op);
    const char *declarer = ts_operator_plugin(op);
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < size; i++) {
        const char *by = ts_operator_kernel_plugin(op, i);
        bool other = by && strcmp(by, declarer) != 0;
        int k = snprintf(buf + used, size - used, "%s%s%s%s%s", i ? "," : "",
                         ts_operator_kernel_backend(op, i), other ? "(" : "",
                         other ? by : "", other ? ")" : "");
        used += k > 0 ? (size_t)k : 0;
    }
    if (!n)
        snprintf(buf, size, "-");
}

/* The operator's schema, malloc'd (NULL when out of memory). */
static char *schema_text(const TsOperator *op)
{
    size_t len = ts_operator_schema(op, NULL, 0);
    char *text = len && len < SIZE_MAX ? malloc(len + 1) : NULL;
    if (text)
        ts_operator_schema(op, text, len + 1);
    return text;
}

/* Prints the operators matching pattern; returns how many. */
static int list(const TsRuntime *rt, const char *pattern)
{
    int wplugin = 6, wback = 7, matched = 0;
    size_t n = ts_runtime_num_operators(rt);
    char buf[256];
    for (size_t i = 0; i < n; i++) {
        const TsOperator *op = ts_runtime_operator(rt, i);
        if (!op_matches(op, pattern))
            continue;
        backends(op, buf, sizeof buf);
        int lp = (int)strlen(ts_operator_plugin(op)), lb = (int)strlen(buf);
        wplugin = lp > wplugin ? lp : wplugin;
        wback = lb > wback ? lb : wback;
    }
    for (size_t i = 0; i < n; i++) {
        const TsOperator *op = ts_runtime_operator(rt, i);
        if (!op_matches(op, pattern))
            continue;
        char *schema = schema_text(op);
        backends(op, buf, sizeof buf);
        printf("%-*s  %-*s  %s\n", wplugin, ts_operator_plugin(op), wback, buf,
               schema ? schema : ts_operator_name(op));
        free(schema);
        matched++;
    }
    return matched;
}

static int ops_main(const TsCliGlobal *g, int argc, char **argv)
{
    int status = ts_cli_help_only(&ts_cli_ops_command, argc, argv);
    if (status != -1)
        return status;
    if (argc - optind > 1)
        return ts_cli_usage(&ts_cli_ops_command, "takes at most one PATTERN, got '%s'",
                            argv[optind + 1]);
    const char *pattern = optind < argc ? argv[optind] : NULL;
    TsRuntime *rt = ts_cli_runtime_full(g, NULL);
    if (!rt)
        return TS_EXIT_FAIL;
    int matched = list(rt, pattern);
    ts_runtime_close(rt);
    if (!matched && pattern)
        return ts_cli_fail("ops", "no operator matches '%s'", pattern);
    return 0;
}

const TsCliCommand ts_cli_ops_command = {
    "ops", "[PATTERN]",
    "list the operator table: schema, declaring plugin, backends with a kernel",
    "List the operators the plugins declare, one a line: the declaring plugin, the backends\n"
    "with a kernel for it (- for none; cpu(aten-dnnl): the kernel that runs is that other\n"
    "plugin's), and the schema. PATTERN is a substring of the qualified name (aten::add)\n"
    "or, with * ? [, a glob of it or of the name with its overload (aten::add.Tensor).\n"
    "Exits 1 when PATTERN matches nothing.\n\n"
    "options:\n"
    "  -h, --help    print this help",
    ops_main,
};
