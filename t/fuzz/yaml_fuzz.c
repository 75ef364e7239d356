/* t/fuzz/yaml_fuzz.c — libFuzzer target for the schema-set loader (core/registry/
 * yaml_schemas.c and its fast scanner, schema_scan.c).
 *
 * Any input must give a schema set or an error, never a crash, leak or sanitizer report.
 * The loader has two readers: the fast scanner for files of the plain shape, libyaml for the
 * rest. Every input is read both ways (ts_yaml_schemas_parse, which tries the scanner first,
 * and ts_yaml_schemas_parse_full, libyaml alone) and they must agree: the same result code,
 * the same error message, or the same declarations (each schema printed, and its line and
 * column); otherwise the scanner read something libyaml reads differently, and the target
 * aborts. The input is handed over without a terminating NUL, so a read past its end is an
 * ASan report. Built by t/fuzz/build.sh; seeds: the files of schemas/ and the schema sets of t/data
 * and examples, whole and cut into pieces of a few entries.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry/yaml_schemas.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void differ(const char *what, const char *fast, const char *full)
{
    fprintf(stderr, "yaml_fuzz: the two readers differ: %s\n  scanner: %s\n  libyaml: %s\n",
            what, fast ? fast : "(none)", full ? full : "(none)");
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    TsSchemaSet fast, full;
    TsError efast = TS_ERROR_INIT, efull = TS_ERROR_INIT;
    int rc_fast = ts_yaml_schemas_parse(text, size, "fuzz.yaml", &fast, &efast);
    int rc_full = ts_yaml_schemas_parse_full(text, size, "fuzz.yaml", &full, &efull);
    if (rc_fast != rc_full)
        differ("result code", efast.msg, efull.msg);
    if (rc_fast) {
        if (!efast.msg || !efull.msg || strcmp(efast.msg, efull.msg) != 0)
            differ("error message", efast.msg, efull.msg);
        if (fast.n || full.n)
            differ("a failed load declares nothing", efast.msg, efull.msg);
    } else if (fast.n != full.n) {
        differ("number of declarations", NULL, NULL);
    }
    for (size_t i = 0; i < fast.n && i < full.n; i++) {
        char *a = ts_schema_to_string(fast.decls[i].schema);
        char *b = ts_schema_to_string(full.decls[i].schema);
        if (!a || !b || strcmp(a, b) != 0)
            differ("a schema", a, b);
        if (fast.decls[i].line != full.decls[i].line || fast.decls[i].col != full.decls[i].col) {
            fprintf(stderr, "yaml_fuzz: %s at %d:%d (scanner) and %d:%d (libyaml)\n", a,
                    fast.decls[i].line, fast.decls[i].col, full.decls[i].line,
                    full.decls[i].col);
            abort();
        }
        free(a);
        free(b);
    }
    ts_schema_set_free(&fast);
    ts_schema_set_free(&full);
    ts_error_clear(&efast);
    ts_error_clear(&efull);
    free(text);
    return 0;
}
