/* ops.c — `tscript ops [PATTERN]`: the operator table as the loaded plugins made it.
 *
 * One line per operator: the declaring plugin and the backends with a kernel in aligned
 * columns, then the schema,
 *
 *     aten-cpu  cpu   aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
 *
 * PATTERN is a substring of the name, or a glob (fnmatch) of the name or the full name
 * with its overload. A PATTERN that matches nothing exits 1.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "registry/optable.h"
#include "runtime.h"

static bool is_glob(const char *p) { return strpbrk(p, "*?[") != NULL; }

static bool op_matches(const TsOperator *op, const char *pattern)
{
    if (!pattern)
        return true;
    char full[512];
    ts_operator_full_name(op, full, sizeof full);
    if (is_glob(pattern))
        return fnmatch(pattern, op->schema->name, 0) == 0 || fnmatch(pattern, full, 0) == 0;
    return strstr(op->schema->name, pattern) != NULL;
}

/* "cpu,cuda", or "-" when nothing implements the operator yet. */
static void backends(const TsOperator *op, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < op->n_kernels && used < size; i++) {
        int n = snprintf(buf + used, size - used, "%s%s", i ? "," : "", op->kernels[i].backend);
        used += n > 0 ? (size_t)n : 0;
    }
    if (!op->n_kernels)
        snprintf(buf, size, "-");
}

/* Prints the operators matching pattern; returns how many. */
static int list(const TsOpTable *t, const char *pattern)
{
    int wplugin = 6, wback = 7, matched = 0;
    const TsOperator *op;
    char buf[256];
    for (size_t pos = 0; ts_optable_next(t, &pos, &op);) {
        if (!op_matches(op, pattern))
            continue;
        backends(op, buf, sizeof buf);
        int lp = (int)strlen(op->plugin), lb = (int)strlen(buf);
        wplugin = lp > wplugin ? lp : wplugin;
        wback = lb > wback ? lb : wback;
    }
    for (size_t pos = 0; ts_optable_next(t, &pos, &op);) {
        if (!op_matches(op, pattern))
            continue;
        char *schema = ts_schema_to_string(op->schema);
        backends(op, buf, sizeof buf);
        printf("%-*s  %-*s  %s\n", wplugin, op->plugin, wback, buf,
               schema ? schema : op->schema->name);
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
    TsRuntime *rt = ts_cli_runtime(g, NULL);
    if (!rt)
        return TS_EXIT_FAIL;
    int matched = list(ts_runtime_optable(rt), pattern);
    ts_runtime_close(rt);
    if (!matched && pattern)
        return ts_cli_fail("ops", "no operator matches '%s'", pattern);
    return 0;
}

const TsCliCommand ts_cli_ops_command = {
    "ops", "[PATTERN]",
    "list the operator table: schema, declaring plugin, backends with a kernel",
    "List the operators the loaded plugins declare, one a line: the declaring plugin, the\n"
    "backends with a kernel for it (- for none), and the schema. PATTERN is a substring of\n"
    "the qualified name (aten::add) or, with * ? [, a glob of it or of the name with its\n"
    "overload (aten::add.Tensor). Exits 1 when PATTERN matches nothing.\n\n"
    "options:\n"
    "  -h, --help    print this help",
    ops_main,
};
