/* t/fuzz/config_fuzz.c — libFuzzer target for the config loader (core/registry/config.c).
 *
 * Any input must give a configuration or an error, never a crash, leak or sanitizer report;
 * the input is handed over without a terminating NUL, so a read past its end is an ASan
 * report. A configuration must hold what config.h promises, else the target aborts: one
 * "file:line:col" per plugin entry, non-empty names and paths, relative paths made
 * absolute against the config's directory, num_threads from 0 (not set) to 4096, a backend
 * that is NULL or non-empty; a failed load leaves the config empty. The first byte picks the
 * config's name (with a directory or without), so both ways of resolving relative paths
 * are reached. Built by t/fuzz/build.sh; seeds: the config files in the tree and
 * t/fuzz/seeds/config.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define DIR "/etc/fuzz"

static void check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "config_fuzz: %s\n", what);
        abort();
    }
}

static void check_paths(const TsStrList *l, bool names_allowed)
{
    for (size_t i = 0; i < l->n; i++) {
        const char *s = l->items[i];
        check(s && *s, "an empty entry");
        if (names_allowed && !strchr(s, '/'))
            continue;          /* a plugin name, looked up on the plugin path */
        check(s[0] == '/', "a relative path left relative");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const char *name = data[0] & 1 ? DIR "/config.yaml" : "config.yaml";
    size_t n = size - 1;
    char *text = malloc(n ? n : 1);
    if (!text)
        return 0;
    memcpy(text, data + 1, n);
    TsConfig c;
    TsError err = TS_ERROR_INIT;
    if (ts_config_parse(text, n, name, &c, &err) == 0) {
        check(c.path && strcmp(c.path, name) == 0 && c.from_file, "the config's name");
        check(c.plugins.n == c.plugin_where.n, "a plugin entry without its place");
        for (size_t i = 0; i < c.plugin_where.n; i++)
            check(strncmp(c.plugin_where.items[i], name, strlen(name)) == 0,
                  "a plugin's place does not name the file");
        if (name[0] == '/') {
            check_paths(&c.plugins, true);
            check_paths(&c.plugin_path, false);
            check_paths(&c.schema_path, false);
        }
        check(c.num_threads >= 0 && c.num_threads <= 4096, "num_threads out of range");
        check(!c.default_backend || *c.default_backend, "an empty backend");
    } else {
        check(err.msg && *err.msg, "an error without a message");
        check(!c.path && c.plugins.n == 0 && !c.default_backend, "a failed load keeps a part");
    }
    ts_config_free(&c);
    ts_error_clear(&err);
    free(text);
    return 0;
}
