/* t/fuzz/schema_fuzz.c — libFuzzer target for the schema-string parser and printer
 * (core/registry/schema.c).
 *
 * Any input must give a schema or an error, never a crash, leak or sanitizer report. A
 * schema must print back to text the parser accepts and that text must give the same schema:
 * parse -> print -> parse -> print ends where it started, else the target aborts (the
 * printer is meant to be a fixed point of the parser, so `tscript ops` never prints a schema
 * the loader refuses). The first byte picks the default namespace (none, or "aten"), so
 * names with and without "ns::" are both reached. Built by t/fuzz/build.sh; seeds: the lines
 * of t/data/schemas.txt, schemas_normalized.txt and bad_schemas.txt.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry/schema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *a, const char *b)
{
    fprintf(stderr, "schema_fuzz: %s\n  first:  %s\n  second: %s\n", what, a, b ? b : "");
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const char *ns = data[0] & 1 ? "aten" : NULL;
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';     /* the parser reads a C string: a NUL ends it */
    TsError err = TS_ERROR_INIT;
    size_t off = 0;
    TsSchema *s = ts_schema_parse(text, ns, &off, &err);
    if (!s) {
        if (off > strlen(text))
            fail("error offset past the text", text, NULL);
        ts_error_clear(&err);
        free(text);
        return 0;
    }
    char *printed = ts_schema_to_string(s);
    char *full = ts_schema_full_name(s);
    free(full);
    (void)ts_schema_is_mutable(s);
    if (!printed)
        abort();
    /* Printed names always carry their namespace, so reparse without a default one. */
    TsSchema *again = ts_schema_parse(printed, NULL, &off, &err);
    if (!again)
        fail(err.msg ? err.msg : "the printed schema does not parse", text, printed);
    char *reprinted = ts_schema_to_string(again);
    if (!reprinted || strcmp(printed, reprinted) != 0)
        fail("the printed schema prints differently once parsed", printed, reprinted);
    if (ts_schema_is_mutable(s) != ts_schema_is_mutable(again) ||
        s->n_args != again->n_args || s->n_returns != again->n_returns ||
        s->is_vararg != again->is_vararg || s->is_varret != again->is_varret)
        fail("the printed schema parses to a different shape", printed, reprinted);
    free(reprinted);
    free(printed);
    ts_schema_free(again);
    ts_schema_free(s);
    ts_error_clear(&err);
    free(text);
    return 0;
}
