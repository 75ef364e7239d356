/* yaml_schemas.c — schema set files: YAML in the style of PyTorch's native_functions.yaml.
 *
 * A schema set file is one YAML document in one of two shapes:
 *
 *   1. A sequence of mappings, each with a `func:` key holding a schema string:
 *
 *          - func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
 *            variants: function, method      # any other key is ignored
 *          - func: myns::frob(Tensor x) -> Tensor
 *
 *      Names without "ns::" are in namespace aten.
 *
 *   2. A mapping with the keys `namespace:` (the default namespace of the file's names) and
 *      `functions:` (a sequence as in 1):
 *
 *          namespace: myns
 *          functions:
 *            - func: frob(Tensor x) -> Tensor       # myns::frob
 *            - func: aten::frob(Tensor x) -> Tensor # a name with "ns::" keeps its own
 *
 * An empty file declares nothing. Everything else is an error reported as
 * "file:line:col: reason", and a file with an error declares nothing: YAML syntax errors,
 * a root that is neither shape, an entry without `func:` or with a non-string one, a schema
 * that does not parse (the position is that of the error inside the func string, mapped back
 * to the file through the scalar's style: plain, quoted and block scalars), and the same
 * name and overload declared twice in one file. Declarations that clash across files are
 * the registry's business (plugin.c), since it knows the other files.
 *
 * Reading is on every program's startup path (~1000 schemas), so there are two readers.
 * A file in the plain shape above goes through schema_scan.c, a one-pass scanner of that
 * subset of YAML; anything else — and any file with an error — goes through libyaml, which
 * alone reports errors, so they read the same whichever reader saw the file first.
 *
 * Every schema is parsed in full when its file loads, not on first use. Parsing lazily
 * would still need a check of the whole grammar at load (a bad schema must fail the plugin
 * at load with file:line:col, and leave nothing registered), and that check is most of a
 * parse: a full parse costs ~4.5k instructions a schema (schema.c allocates one in a block
 * or two), ~1.5 ms for all ~1000 the default plugins declare. In exchange the operator
 * table stays immutable after load and its lookups lock-free.
 */
#include "registry/yaml_schemas.h"

#include "registry/optable.h"
#include "registry/schema_scan.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILE_SIZE ((size_t)64 << 20)

/* ---- shared YAML plumbing --------------------------------------------------- */

char *ts_yaml_read_file(const char *path, size_t *len, TsError *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        ts_error_set(err, TS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (ferror(f)) {
            ts_error_set(err, TS_ERR_IO, "%s: read error: %s", path, strerror(errno));
            free(buf);
            fclose(f);
            return NULL;
        }
        if (feof(f))
            break;
        if (cap > MAX_FILE_SIZE) {
            ts_error_set(err, TS_ERR_LIMIT, "%s: file larger than %zu bytes", path,
                         MAX_FILE_SIZE);
            free(buf);
            fclose(f);
            return NULL;
        }
        char *nb = realloc(buf, cap * 2);
        if (!nb)
            free(buf);
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    if (!buf) {
        ts_error_set(err, TS_ERR_NOMEM, "%s: out of memory", path);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static int yaml_parser_error(yaml_parser_t *p, const char *name, TsError *err)
{
    if (p->error == YAML_MEMORY_ERROR)
        return ts_error_set(err, TS_ERR_NOMEM, "%s: out of memory", name);
    const yaml_mark_t *m = &p->problem_mark;
    if (p->context)
        return ts_error_set(err, TS_ERR_SYNTAX, "%s:%zu:%zu: %s %s", name, m->line + 1,
                            m->column + 1, p->problem ? p->problem : "syntax error",
                            p->context);
    return ts_error_set(err, TS_ERR_SYNTAX, "%s:%zu:%zu: %s", name, m->line + 1, m->column + 1,
                        p->problem ? p->problem : "syntax error");
}

int ts_yaml_load_document(const char *text, size_t len, const char *name, yaml_document_t *doc,
                          int *has_root, TsError *err)
{
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p))
        return ts_error_set(err, TS_ERR_NOMEM, "%s: out of memory", name);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    if (!yaml_parser_load(&p, doc)) {
        int rc = yaml_parser_error(&p, name, err);
        yaml_parser_delete(&p);
        return rc;
    }
    *has_root = yaml_document_get_root_node(doc) != NULL;
    if (*has_root) {
        /* A second document is an error: a file is one schema set or one config. */
        yaml_document_t next;
        if (!yaml_parser_load(&p, &next)) {
            int rc = yaml_parser_error(&p, name, err);
            yaml_document_delete(doc);
            yaml_parser_delete(&p);
            return rc;
        }
        yaml_node_t *root = yaml_document_get_root_node(&next);
        if (root) {
            ts_yaml_node_error(err, TS_ERR_SYNTAX, name, root,
                               "expected a single YAML document, found a second one");
            yaml_document_delete(&next);
            yaml_document_delete(doc);
            yaml_parser_delete(&p);
            return TS_ERR_SYNTAX;
        }
        yaml_document_delete(&next);
    }
    yaml_parser_delete(&p);
    return 0;
}

int ts_yaml_node_error(TsError *err, TsErrorCode code, const char *name, const yaml_node_t *node,
                       const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ts_error_setv(err, code, fmt, ap);
    va_end(ap);
    ts_error_prefix(err, "%s:%zu:%zu: ", name, node->start_mark.line + 1,
                    node->start_mark.column + 1);
    return code;
}

const char *ts_yaml_scalar(const yaml_node_t *node)
{
    return node && node->type == YAML_SCALAR_NODE ? (const char *)node->data.scalar.value : NULL;
}

/* ---- mapping a position inside a scalar's value back to the file ------------ */

/* A cursor over the file text that counts lines and columns as libyaml does (columns in
 * characters, 0-based). */
typedef struct Cursor {
    const char *text;
    size_t len, pos;
    size_t line, col;
} Cursor;

static int cur_at(const Cursor *c) { return c->pos < c->len ? (unsigned char)c->text[c->pos] : -1; }
static int is_break(int ch) { return ch == '\n' || ch == '\r'; }
static int is_blank(int ch) { return ch == ' ' || ch == '\t'; }

static void cur_advance(Cursor *c)
{
    int ch = cur_at(c);
    if (ch < 0)
        return;
    c->pos++;
    if (ch == '\r' && cur_at(c) == '\n')
        c->pos++;
    if (is_break(ch)) {
        c->line++;
        c->col = 0;
    } else if ((ch & 0xC0) != 0x80) {
        c->col++;
    }
    /* the continuation bytes of a UTF-8 character belong to its column */
    while (c->pos < c->len && ((unsigned char)c->text[c->pos] & 0xC0) == 0x80)
        c->pos++;
}

/* Bytes of UTF-8 for a code point. */
static size_t utf8_len(unsigned long cp)
{
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/* Skips a line break and the following blank lines and indentation; returns how many
 * breaks it passed. */
static size_t skip_fold(Cursor *c)
{
    size_t breaks = 0;
    while (is_break(cur_at(c)) || is_blank(cur_at(c))) {
        if (is_break(cur_at(c)))
            breaks++;
        cur_advance(c);
    }
    return breaks;
}

/* Does a run of blanks at the cursor end in a line break? (Such trailing blanks are not part
 * of a flow scalar's value.) */
static int blanks_then_break(const Cursor *c)
{
    size_t p = c->pos;
    while (p < c->len && is_blank((unsigned char)c->text[p]))
        p++;
    return p < c->len && is_break((unsigned char)c->text[p]);
}

/* Walks a flow scalar (plain, single- or double-quoted) from its first character until
 * offset bytes of its value are behind. */
static void walk_flow(Cursor *c, yaml_scalar_style_t style, size_t offset)
{
    size_t produced = 0;
    while (cur_at(c) >= 0) {
        int ch = cur_at(c);
        if (style == YAML_DOUBLE_QUOTED_SCALAR_STYLE && ch == '\\' && c->pos + 1 < c->len &&
            is_break((unsigned char)c->text[c->pos + 1])) {
            cur_advance(c);                        /* an escaped line break: nothing */
            skip_fold(c);
            continue;
        }
        if (produced >= offset)
            break;
        if (is_blank(ch) && blanks_then_break(c)) {
            size_t breaks = skip_fold(c);
            produced += breaks > 1 ? breaks - 1 : 1;
        } else if (is_break(ch)) {
            size_t breaks = skip_fold(c);
            produced += breaks > 1 ? breaks - 1 : 1;
        } else if (style == YAML_SINGLE_QUOTED_SCALAR_STYLE && ch == '\'') {
            cur_advance(c);                        /* '' is one quote */
            cur_advance(c);
            produced++;
        } else if (style == YAML_DOUBLE_QUOTED_SCALAR_STYLE && ch == '\\') {
            cur_advance(c);
            int e = cur_at(c);
            int digits = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
            cur_advance(c);
            if (digits) {
                unsigned long cp = 0;
                for (int i = 0; i < digits && cur_at(c) >= 0; i++) {
                    int h = cur_at(c);
                    cp = cp * 16 + (unsigned long)(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
                    cur_advance(c);
                }
                produced += utf8_len(cp);
            } else {
                produced += e == 'N' || e == '_' ? 2 : e == 'L' || e == 'P' ? 3 : 1;
            }
        } else {
            size_t before = c->pos;
            cur_advance(c);
            produced += c->pos - before;
        }
    }
}

/* Walks a block scalar (| or >) from its indicator until offset bytes of its value are
 * behind: the header line is skipped, then each line loses the block's indentation. */
static void walk_block(Cursor *c, size_t offset)
{
    while (cur_at(c) >= 0 && !is_break(cur_at(c)))
        cur_advance(c);
    cur_advance(c);
    /* the block's indentation is that of its first non-empty line */
    size_t p = c->pos, indent = 0;
    for (;;) {
        size_t i = 0;
        while (p + i < c->len && c->text[p + i] == ' ')
            i++;
        if (p + i < c->len && is_break((unsigned char)c->text[p + i])) {
            p += i + 1;
            continue;
        }
        indent = i;
        break;
    }
    size_t produced = 0;
    for (;;) {
        for (size_t i = 0; i < indent && cur_at(c) == ' '; i++)
            cur_advance(c);
        while (produced < offset && cur_at(c) >= 0 && !is_break(cur_at(c))) {
            size_t before = c->pos;
            cur_advance(c);
            produced += c->pos - before;
        }
        if (produced >= offset || cur_at(c) < 0)
            return;
        cur_advance(c);                            /* the line break: '\n' or a folded ' ' */
        produced++;
    }
}

/* The 1-based file position of byte offset in the value of scalar node. */
static void scalar_position(const char *text, size_t len, const yaml_node_t *node, size_t offset,
                            int *line, int *col)
{
    Cursor c = { text, len, 0, 0, 0 };
    while (c.line < node->start_mark.line && cur_at(&c) >= 0)
        cur_advance(&c);
    while (c.col < node->start_mark.column && cur_at(&c) >= 0 && !is_break(cur_at(&c)))
        cur_advance(&c);
    yaml_scalar_style_t style = node->data.scalar.style;
    switch (style) {
    case YAML_LITERAL_SCALAR_STYLE:
    case YAML_FOLDED_SCALAR_STYLE:
        walk_block(&c, offset);
        break;
    case YAML_SINGLE_QUOTED_SCALAR_STYLE:
    case YAML_DOUBLE_QUOTED_SCALAR_STYLE:
        cur_advance(&c);                           /* the opening quote */
        walk_flow(&c, style, offset);
        break;
    default:
        walk_flow(&c, style, offset);
        break;
    }
    *line = (int)c.line + 1;
    *col = (int)c.col + 1;
}

/* ---- schema sets ------------------------------------------------------------- */

void ts_schema_set_free(TsSchemaSet *set)
{
    if (!set)
        return;
    for (size_t i = 0; i < set->n; i++)
        ts_schema_free(set->decls[i].schema);
    free(set->decls);
    free(set->path);
    ts_arena_release(set->arena);
    set->decls = NULL;
    set->path = NULL;
    set->arena = NULL;
    set->n = 0;
}

/* Starts a set named name: its path and arena. */
static int set_init(TsSchemaSet *set, const char *name, size_t text_len, TsError *err)
{
    memset(set, 0, sizeof *set);
    set->path = strdup(name);
    /* a parsed schema takes ~4 bytes per byte of its text */
    set->arena = ts_arena_new(4 * text_len);
    if (!set->path || !set->arena)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    return 0;
}

typedef struct Loader {
    const char *text;
    size_t len;
    const char *name;
    yaml_document_t *doc;
    TsSchemaSet *set;
    TsSchemaCtx *ctx;
    TsError *err;
} Loader;

static yaml_node_t *node_at(Loader *l, int id) { return yaml_document_get_node(l->doc, id); }

static int valid_namespace(const char *s)
{
    if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
        return 0;
    for (; *s; s++)
        if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9')))
            return 0;
    return 1;
}

static TsSchemaDecl make_decl(TsSchema *s, int line, int col)
{
    TsOpKey key = ts_op_key(s->name, s->overload);
    return (TsSchemaDecl){ s, line, col, key.hash_name, key.hash_full };
}

static int load_entry(Loader *l, yaml_node_t *entry, const char *ns)
{
    if (entry->type != YAML_MAPPING_NODE)
        return ts_yaml_node_error(l->err, TS_ERR_SYNTAX, l->name, entry,
                                  "expected a mapping with a 'func' key");
    yaml_node_t *func = NULL;
    for (yaml_node_pair_t *pr = entry->data.mapping.pairs.start;
         pr < entry->data.mapping.pairs.top; pr++) {
        const char *key = ts_yaml_scalar(node_at(l, pr->key));
        if (key && strcmp(key, "func") == 0) {
            if (func)
                return ts_yaml_node_error(l->err, TS_ERR_SYNTAX, l->name, node_at(l, pr->key),
                                          "duplicate 'func' key");
            func = node_at(l, pr->value);
        }
    }
    if (!func)
        return ts_yaml_node_error(l->err, TS_ERR_SYNTAX, l->name, entry,
                                  "entry has no 'func' key");
    const char *text = ts_yaml_scalar(func);
    if (!text)
        return ts_yaml_node_error(l->err, TS_ERR_SYNTAX, l->name, func,
                                  "'func' must be a schema string");
    size_t offset = 0;
    TsSchema *s = ts_schema_parse_in(l->ctx, text, ns, &offset, l->err);
    if (!s) {
        if (l->err && l->err->code == TS_ERR_NOMEM)
            return TS_ERR_NOMEM;
        int line, col;
        if (offset > func->data.scalar.length)
            offset = func->data.scalar.length;
        scalar_position(l->text, l->len, func, offset, &line, &col);
        ts_error_prefix(l->err, "%s:%d:%d: ", l->name, line, col);
        if (l->err)
            l->err->code = TS_ERR_SYNTAX;
        return TS_ERR_SYNTAX;
    }
    TsSchemaDecl *d = realloc(l->set->decls, (l->set->n + 1) * sizeof *d);
    if (!d) {
        ts_schema_free(s);
        return ts_error_set(l->err, TS_ERR_NOMEM, "%s: out of memory", l->name);
    }
    l->set->decls = d;
    d[l->set->n++] = make_decl(s, (int)func->start_mark.line + 1,
                               (int)func->start_mark.column + 1);
    return 0;
}

static int load_sequence(Loader *l, yaml_node_t *seq, const char *ns)
{
    for (yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top;
         it++) {
        int rc = load_entry(l, node_at(l, *it), ns);
        if (rc)
            return rc;
    }
    return 0;
}

static int load_mapping(Loader *l, yaml_node_t *map)
{
    yaml_node_t *functions = NULL;
    const char *ns = NULL;
    for (yaml_node_pair_t *pr = map->data.mapping.pairs.start; pr < map->data.mapping.pairs.top;
         pr++) {
        yaml_node_t *k = node_at(l, pr->key), *v = node_at(l, pr->value);
        const char *key = ts_yaml_scalar(k);
        if (key && strcmp(key, "namespace") == 0) {
            ns = ts_yaml_scalar(v);
            if (!ns || !valid_namespace(ns))
                return ts_yaml_node_error(l->err, TS_ERR_SYNTAX, l->name, v,
                                          "'namespace' must be an identifier");
        } else if (key && strcmp(key, "functions") == 0) {
            if (v->type != YAML_SEQUENCE_NODE)
                return ts_yaml_node_error(l->err, TS_ERR_SYNTAX, l->name, v,
                                          "'functions' must be a sequence");
            functions = v;
        } else {
            return ts_yaml_node_error(l->err, TS_ERR_SYNTAX, l->name, k,
                                      "unknown key '%s' (expected 'namespace' or 'functions')",
                                      key ? key : "?");
        }
    }
    if (!ns)
        return ts_yaml_node_error(l->err, TS_ERR_SYNTAX, l->name, map,
                                  "a schema set mapping needs a 'namespace' key");
    if (!functions)
        return ts_yaml_node_error(l->err, TS_ERR_SYNTAX, l->name, map,
                                  "a schema set mapping needs a 'functions' key");
    return load_sequence(l, functions, ns);
}

/* The first declaration that repeats an earlier one's name and overload (*dup) and that
 * earlier one (*first); *dup is NULL when there is none. Fails only for memory. */
static int find_duplicate(const TsSchemaSet *set, TsSchemaDecl **first, TsSchemaDecl **dup)
{
    *first = *dup = NULL;
    if (set->n < 2)
        return 0;
    size_t nb = 16;
    while (nb < 2 * set->n)
        nb *= 2;
    size_t *buckets = calloc(nb, sizeof *buckets);  /* decl index + 1; 0 = empty */
    if (!buckets)
        return TS_ERR_NOMEM;
    for (size_t i = 0; i < set->n && !*dup; i++) {
        const TsSchema *s = set->decls[i].schema;
        uint64_t h = set->decls[i].hash_full;
        size_t b = h & (nb - 1);
        for (; buckets[b]; b = (b + 1) & (nb - 1)) {
            const TsSchema *o = set->decls[buckets[b] - 1].schema;
            if (set->decls[buckets[b] - 1].hash_full == h && strcmp(o->name, s->name) == 0 &&
                strcmp(o->overload, s->overload) == 0) {
                *first = &set->decls[buckets[b] - 1];
                *dup = &set->decls[i];
                break;
            }
        }
        if (!*dup)
            buckets[b] = i + 1;
    }
    free(buckets);
    return 0;
}

/* The same name and overload twice in one file is an error at the later one. */
static int check_duplicates(Loader *l)
{
    TsSchemaDecl *first, *dup;
    if (find_duplicate(l->set, &first, &dup))
        return ts_error_set(l->err, TS_ERR_NOMEM, "%s: out of memory", l->name);
    if (!dup)
        return 0;
    char *full = ts_schema_full_name(dup->schema);
    ts_error_set(l->err, TS_ERR_SYNTAX, "%s:%d:%d: %s is declared twice (first at line %d)",
                 l->name, dup->line, dup->col, full ? full : dup->schema->name, first->line);
    free(full);
    return TS_ERR_SYNTAX;
}

/* Empties a set that failed: all or nothing, a bad file declares nothing. */
static void drop_decls(TsSchemaSet *set)
{
    for (size_t i = 0; i < set->n; i++)
        ts_schema_free(set->decls[i].schema);
    free(set->decls);
    set->decls = NULL;
    set->n = 0;
}

int ts_yaml_schemas_parse_full(const char *text, size_t len, const char *name,
                               TsSchemaSet *out, TsError *err)
{
    if (set_init(out, name, len, err))
        return TS_ERR_NOMEM;
    yaml_document_t doc;
    int has_root = 0;
    int rc = ts_yaml_load_document(text, len, name, &doc, &has_root, err);
    if (rc)
        return rc;
    if (!has_root) {
        yaml_document_delete(&doc);
        return 0;
    }
    TsSchemaCtx ctx;
    ts_schema_ctx_init(&ctx, out->arena);
    Loader l = { text, len, name, &doc, out, &ctx, err };
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root->type == YAML_SEQUENCE_NODE)
        rc = load_sequence(&l, root, "aten");
    else if (root->type == YAML_MAPPING_NODE)
        rc = load_mapping(&l, root);
    else
        rc = ts_yaml_node_error(err, TS_ERR_SYNTAX, name, root,
                                "expected a sequence of '- func: ...' entries or a mapping "
                                "with 'namespace' and 'functions'");
    if (!rc)
        rc = check_duplicates(&l);
    ts_schema_ctx_free(&ctx);
    yaml_document_delete(&doc);
    if (rc)
        drop_decls(out);
    return rc;
}

/* The scanner's values as declarations. Anything wrong — a schema that does not parse, a
 * duplicate — declines too: the full path then reports it with its position. */
static int declare_scanned(const char *text, const TsScan *sc, TsSchemaSet *out, TsError *err)
{
    char *ns = sc->has_namespace ? strndup(text + sc->ns_off, sc->ns_len) : NULL;
    size_t longest = 0;
    for (size_t i = 0; i < sc->n; i++)
        longest = sc->funcs[i].len > longest ? sc->funcs[i].len : longest;
    char *buf = malloc(longest + 1);
    out->decls = malloc((sc->n ? sc->n : 1) * sizeof *out->decls);
    TsSchemaCtx ctx;
    ts_schema_ctx_init(&ctx, out->arena);
    int rc = (sc->has_namespace && !ns) || !buf || !out->decls ? TS_ERR_NOMEM : 0;
    for (size_t i = 0; i < sc->n && !rc; i++) {
        const TsScanFunc *f = &sc->funcs[i];
        size_t n = 0;
        if (!f->single_quoted) {
            memcpy(buf, text + f->off, f->len);
            n = f->len;
        } else {
            for (size_t k = 0; k < f->len; k++) {
                buf[n++] = text[f->off + k];
                if (text[f->off + k] == '\'')
                    k++;       /* '' is one quote */
            }
        }
        buf[n] = '\0';
        TsError perr = TS_ERROR_INIT;
        TsSchema *s = ts_schema_parse_in(&ctx, buf, ns ? ns : "aten", NULL, &perr);
        if (s)
            out->decls[out->n++] = make_decl(s, f->line, f->col);
        else
            rc = perr.code == TS_ERR_NOMEM ? TS_ERR_NOMEM : TS_SCAN_DECLINED;
        ts_error_clear(&perr);
    }
    TsSchemaDecl *first, *dup = NULL;
    if (!rc)
        rc = find_duplicate(out, &first, &dup);
    if (!rc && dup)
        rc = TS_SCAN_DECLINED;
    ts_schema_ctx_free(&ctx);
    free(buf);
    free(ns);
    if (rc == TS_ERR_NOMEM)
        ts_error_set(err, TS_ERR_NOMEM, "%s: out of memory", out->path);
    return rc;
}

int ts_yaml_schemas_parse(const char *text, size_t len, const char *name, TsSchemaSet *out,
                          TsError *err)
{
    memset(out, 0, sizeof *out);
    TsScan sc;
    int rc = ts_schema_scan(text, len, &sc);
    if (!rc) {
        rc = set_init(out, name, len, err);
        if (!rc)
            rc = declare_scanned(text, &sc, out, err);
    } else if (rc == TS_ERR_NOMEM) {
        ts_error_set(err, TS_ERR_NOMEM, "%s: out of memory", name);
    }
    ts_scan_free(&sc);
    if (rc == TS_SCAN_DECLINED) {
        ts_schema_set_free(out);
        return ts_yaml_schemas_parse_full(text, len, name, out, err);
    }
    if (rc)
        drop_decls(out);
    return rc;
}

int ts_yaml_schemas_load(const char *path, TsSchemaSet *out, TsError *err)
{
    memset(out, 0, sizeof *out);
    size_t len;
    char *text = ts_yaml_read_file(path, &len, err);
    if (!text)
        return err ? err->code : TS_ERR_IO;
    int rc = ts_yaml_schemas_parse(text, len, path, out, err);
    free(text);
    return rc;
}
