/* config.c — the runtime's configuration file, and where plugins and schemas are found.
 *
 * A config file is a YAML mapping; every key is optional and an unknown key is an error:
 *
 *     plugins: [prim, aten-cpu, ./vendor/myplugin.so]  # default: [prim, aten-cpu, fuser-cpu],
 *                                                    # with aten-dnnl after aten-cpu where built
 *     default_backend: cpu                           # default: cpu
 *     num_threads: 4                                 # default: the number of cores
 *     plugin_path: [/opt/vendor/lib]                 # searched before the built-in places
 *     schema_path: [/opt/vendor/share]
 *     cuda_graphs: true                              # default: false
 *     blas_core: SkylakeX                            # default: aten-cpu chooses
 *     load: on_first_use                             # or at_open; default: on_first_use
 *                                                    # for the default plugins, else at_open
 *
 * A plugin entry containing '/' is a file path; any other is a name looked up on the plugin
 * path as NAME.so. Relative paths (plugin files and path directories) are taken relative to
 * the directory of the config file. `plugins: []` loads nothing; leaving the key out loads
 * the default plugins. An empty file is the default configuration.
 *
 * load: on_first_use opens a runtime with its first plugin alone and loads the others the
 * first time a program needs something they may provide (an operator the loaded ones lack, a
 * tensor, the list of operators: runtime.c), so a program of ints and strings never pays
 * for aten-cpu's thousand schemas; a broken plugin then shows its error there rather than
 * at open. at_open loads every plugin at open.
 *
 * Keys a plugin reads rather than the core (blas_core, aten-cpu's) are checked for their
 * form here, so that a bad value names its line, and kept with that place (settings.c
 * hands them to plugins, which check what only they know).
 *
 * Which config: `--config FILE` (the path given to ts_runtime_open), else $TSCRIPT_CONFIG,
 * else TS_SYSCONFDIR/tscript/config.yaml if it exists, else the embedded default.
 */
#include "registry/config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <config.h>             /* configure's (TS_HAVE_DNNL), not this directory's */
#include "registry/yaml_schemas.h"

#define MAX_THREADS 4096
#define EMBEDDED_NAME "(embedded default config)"

int ts_strlist_push(TsStrList *l, const char *s, TsError *err)
{
    char *copy = strdup(s);
    char **items = copy ? realloc(l->items, (l->n + 1) * sizeof *items) : NULL;
    if (!items) {
        free(copy);
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    }
    l->items = items;
    items[l->n++] = copy;
    return 0;
}

void ts_strlist_free(TsStrList *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->items[i]);
    free(l->items);
    l->items = NULL;
    l->n = 0;
}

int ts_strlist_push_env_path(TsStrList *l, const char *var, TsError *err)
{
    const char *v = getenv(var);
    while (v && *v) {
        const char *end = strchr(v, ':');
        size_t n = end ? (size_t)(end - v) : strlen(v);
        if (n) {
            char *dir = strndup(v, n);
            int rc = dir ? ts_strlist_push(l, dir, err)
                         : ts_error_set(err, TS_ERR_NOMEM, "out of memory");
            free(dir);
            if (rc)
                return rc;
        }
        v = end ? end + 1 : NULL;
    }
    return 0;
}

void ts_config_free(TsConfig *c)
{
    if (!c)
        return;
    free(c->path);
    ts_strlist_free(&c->plugins);
    ts_strlist_free(&c->plugin_where);
    ts_strlist_free(&c->plugin_path);
    ts_strlist_free(&c->schema_path);
    free(c->default_backend);
    free(c->blas_core);
    free(c->blas_core_where);
    memset(c, 0, sizeof *c);
}

/* aten-dnnl (aten-cpu's convolutions on oneDNN, built where configure found oneDNN) loads
 * after aten-cpu, whose kernels it replaces, and before fuser-cpu, so that its pass sees a
 * convolution's relu before the fuser takes it. */
static int default_plugins(TsConfig *c, const char *where, TsError *err)
{
#ifdef TS_HAVE_DNNL
    static const char *const names[] = { "prim", "aten-cpu", "aten-dnnl", "fuser-cpu" };
#else
    static const char *const names[] = { "prim", "aten-cpu", "fuser-cpu" };
#endif
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (ts_strlist_push(&c->plugins, names[i], err) ||
            ts_strlist_push(&c->plugin_where, where, err))
            return err ? err->code : TS_ERR_NOMEM;
    c->plugins_default = true;
    return 0;
}

int ts_config_default(TsConfig *out, TsError *err)
{
    memset(out, 0, sizeof *out);
    out->path = strdup(EMBEDDED_NAME);
    out->default_backend = strdup("cpu");
    if (!out->path || !out->default_backend || default_plugins(out, EMBEDDED_NAME, err)) {
        ts_config_free(out);
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    }
    return 0;
}

/* ---- parsing ------------------------------------------------------------------ */

typedef struct Parser {
    const char *name;
    char *dir;                 /* the config file's directory, for relative paths */
    yaml_document_t *doc;
    TsConfig *c;
    TsError *err;
} Parser;

/* A path from the config: relative ones are taken from the config's directory. */
static char *config_relative(const Parser *p, const char *path)
{
    if (path[0] == '/' || !p->dir)
        return strdup(path);
    size_t n = strlen(p->dir) + strlen(path) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s/%s", p->dir, path);
    return s;
}

static int node_error(Parser *p, const yaml_node_t *n, const char *what)
{
    return ts_yaml_node_error(p->err, TS_ERR_CONFIG, p->name, n, "%s", what);
}

/* "config.yaml:3:5": where node starts, for a setting checked after parsing. */
static void node_place(const Parser *p, const yaml_node_t *n, char *buf, size_t size)
{
    snprintf(buf, size, "%s:%zu:%zu", p->name, n->start_mark.line + 1, n->start_mark.column + 1);
}

/* A sequence of non-empty strings. Directories and plugin entries containing '/' are paths,
 * made absolute against the config's directory; other plugin entries are names. */
static int parse_list(Parser *p, const char *key, const yaml_node_t *v, TsStrList *out,
                      bool plugins)
{
    if (v->type != YAML_SEQUENCE_NODE)
        return ts_yaml_node_error(p->err, TS_ERR_CONFIG, p->name, v,
                                  "'%s' must be a sequence of strings", key);
    for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top;
         it++) {
        yaml_node_t *item = yaml_document_get_node(p->doc, *it);
        const char *s = ts_yaml_scalar(item);
        if (!s || !*s)
            return ts_yaml_node_error(p->err, TS_ERR_CONFIG, p->name, item,
                                      "'%s' entries must be non-empty strings", key);
        bool is_path = !plugins || strchr(s, '/');
        char *value = is_path ? config_relative(p, s) : strdup(s);
        int rc = value ? ts_strlist_push(out, value, p->err)
                       : ts_error_set(p->err, TS_ERR_NOMEM, "out of memory");
        free(value);
        if (rc)
            return rc;
        if (plugins) {
            char where[4096];
            node_place(p, item, where, sizeof where);
            if (ts_strlist_push(&p->c->plugin_where, where, p->err))
                return TS_ERR_NOMEM;
        }
    }
    return 0;
}

static int parse_threads(Parser *p, const yaml_node_t *v)
{
    const char *s = ts_yaml_scalar(v);
    char *end = NULL;
    long n = s && v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE ? strtol(s, &end, 10) : 0;
    if (!s || !*s || !end || *end || n < 1 || n > MAX_THREADS)
        return ts_yaml_node_error(p->err, TS_ERR_CONFIG, p->name, v,
                                  "'num_threads' must be an integer from 1 to %d", MAX_THREADS);
    p->c->num_threads = (int)n;
    return 0;
}

/* cuda_graphs: the executor captures the GPU work of regions whose shapes repeat into
 * graphs and replays them (core/sched/capture.c). A YAML 1.1 boolean, plain. */
static int parse_graphs(Parser *p, const yaml_node_t *v)
{
    const char *s = ts_yaml_scalar(v);
    bool plain = s && v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    if (plain && (strcmp(s, "true") == 0 || strcmp(s, "True") == 0 || strcmp(s, "yes") == 0))
        p->c->cuda_graphs = 1;
    else if (plain && (strcmp(s, "false") == 0 || strcmp(s, "False") == 0 ||
                       strcmp(s, "no") == 0))
        p->c->cuda_graphs = 0;
    else
        return ts_yaml_node_error(p->err, TS_ERR_CONFIG, p->name, v,
                                  "'cuda_graphs' must be true or false");
    return 0;
}

/* blas_core: the OpenBLAS core type aten-cpu loads (one of the names OpenBLAS's
 * OPENBLAS_CORETYPE takes: a word of letters, digits and '_'); aten-cpu checks the name. */
static int parse_blas_core(Parser *p, const yaml_node_t *v)
{
    const char *s = ts_yaml_scalar(v);
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n > 31 || strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                      "0123456789_") != n)
        return ts_yaml_node_error(p->err, TS_ERR_CONFIG, p->name, v,
                                  "'blas_core' must be an OpenBLAS core type such as SkylakeX, "
                                  "got '%s'", s ? s : "(not a string)");
    char where[4096];
    node_place(p, v, where, sizeof where);
    p->c->blas_core = strdup(s);
    p->c->blas_core_where = strdup(where);
    if (!p->c->blas_core || !p->c->blas_core_where)
        return ts_error_set(p->err, TS_ERR_NOMEM, "out of memory");
    return 0;
}

static int parse_load(Parser *p, const yaml_node_t *v)
{
    const char *s = ts_yaml_scalar(v);
    if (s && v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && strcmp(s, "at_open") == 0)
        p->c->load = TS_LOAD_AT_OPEN;
    else if (s && v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
             strcmp(s, "on_first_use") == 0)
        p->c->load = TS_LOAD_ON_FIRST_USE;
    else
        return node_error(p, v, "'load' must be at_open or on_first_use");
    return 0;
}

static int parse_backend(Parser *p, const yaml_node_t *v)
{
    const char *s = ts_yaml_scalar(v);
    if (!s || !*s)
        return node_error(p, v, "'default_backend' must be a backend name such as cpu");
    free(p->c->default_backend);
    p->c->default_backend = strdup(s);
    return p->c->default_backend ? 0 : ts_error_set(p->err, TS_ERR_NOMEM, "out of memory");
}

static int parse_root(Parser *p, yaml_node_t *root)
{
    if (root->type != YAML_MAPPING_NODE)
        return node_error(p, root, "a config file must be a mapping of settings");
    bool seen_plugins = false;
    for (yaml_node_pair_t *pr = root->data.mapping.pairs.start;
         pr < root->data.mapping.pairs.top; pr++) {
        yaml_node_t *k = yaml_document_get_node(p->doc, pr->key);
        yaml_node_t *v = yaml_document_get_node(p->doc, pr->value);
        const char *key = ts_yaml_scalar(k);
        if (!key)
            return node_error(p, k, "keys must be strings");
        for (yaml_node_pair_t *q = root->data.mapping.pairs.start; q < pr; q++) {
            const char *other = ts_yaml_scalar(yaml_document_get_node(p->doc, q->key));
            if (other && strcmp(other, key) == 0)
                return ts_yaml_node_error(p->err, TS_ERR_CONFIG, p->name, k,
                                          "duplicate key '%s'", key);
        }
        int rc;
        if (strcmp(key, "plugins") == 0) {
            seen_plugins = true;
            rc = parse_list(p, key, v, &p->c->plugins, true);
        } else if (strcmp(key, "plugin_path") == 0) {
            rc = parse_list(p, key, v, &p->c->plugin_path, false);
        } else if (strcmp(key, "schema_path") == 0) {
            rc = parse_list(p, key, v, &p->c->schema_path, false);
        } else if (strcmp(key, "default_backend") == 0) {
            rc = parse_backend(p, v);
        } else if (strcmp(key, "num_threads") == 0) {
            rc = parse_threads(p, v);
        } else if (strcmp(key, "cuda_graphs") == 0) {
            rc = parse_graphs(p, v);
        } else if (strcmp(key, "blas_core") == 0) {
            rc = parse_blas_core(p, v);
        } else if (strcmp(key, "load") == 0) {
            rc = parse_load(p, v);
        } else {
            rc = ts_yaml_node_error(p->err, TS_ERR_CONFIG, p->name, k,
                                    "unknown key '%s' (expected plugins, default_backend, "
                                    "num_threads, cuda_graphs, blas_core, load, plugin_path "
                                    "or schema_path)", key);
        }
        if (rc)
            return rc;
    }
    return seen_plugins ? 0 : default_plugins(p->c, p->name, p->err);
}

int ts_config_parse(const char *text, size_t len, const char *name, TsConfig *out, TsError *err)
{
    memset(out, 0, sizeof *out);
    out->path = strdup(name);
    if (!out->path)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    out->from_file = true;
    const char *slash = strrchr(name, '/');
    Parser p = { name, slash ? strndup(name, (size_t)(slash - name)) : NULL, NULL, out, err };
    if (slash && !p.dir) {
        /* without its directory, the config's relative paths would resolve elsewhere */
        ts_config_free(out);
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    }
    yaml_document_t doc;
    int has_root = 0;
    int rc = ts_yaml_load_document(text, len, name, &doc, &has_root, err);
    if (rc) {
        if (err && err->code == TS_ERR_SYNTAX)
            err->code = TS_ERR_CONFIG;
    } else {
        p.doc = &doc;
        rc = has_root ? parse_root(&p, yaml_document_get_root_node(&doc))
                      : default_plugins(out, name, err);
        yaml_document_delete(&doc);
    }
    free(p.dir);
    if (rc) {
        ts_config_free(out);
        return rc;
    }
    return 0;
}

int ts_config_load(const char *path, TsConfig *out, TsError *err)
{
    memset(out, 0, sizeof *out);
    size_t len;
    char *text = ts_yaml_read_file(path, &len, err);
    if (!text) {
        if (err)
            err->code = TS_ERR_CONFIG;
        return TS_ERR_CONFIG;
    }
    int rc = ts_config_parse(text, len, path, out, err);
    free(text);
    return rc;
}

int ts_config_open(const char *path, TsConfig *out, TsError *err)
{
    if (path)
        return ts_config_load(path, out, err);
    const char *env = getenv("TSCRIPT_CONFIG");
    if (env && *env)
        return ts_config_load(env, out, err);
    const char *installed = TS_SYSCONFDIR "/tscript/config.yaml";
    if (access(installed, R_OK) == 0)
        return ts_config_load(installed, out, err);
    return ts_config_default(out, err);
}

/* ---- where the program runs ----------------------------------------------------- */

bool ts_running_in_build_tree(void)
{
    char exe[PATH_MAX], build[PATH_MAX];
    if (!realpath("/proc/self/exe", exe) || !realpath(TS_BUILDDIR, build))
        return false;
    size_t n = strlen(build);
    return strncmp(exe, build, n) == 0 && (exe[n] == '/' || exe[n] == '\0');
}
