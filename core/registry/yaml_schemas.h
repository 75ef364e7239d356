/* yaml_schemas.h — schema sets from YAML files, and the YAML plumbing config.c shares
 * (internal to the core).
 *
 * A schema set file declares operators in the style of PyTorch's native_functions.yaml; the
 * format is described at the top of yaml_schemas.c. Loading is all or nothing: a malformed
 * file yields an error "file:line:col: reason" and an empty set.
 */
#ifndef TSCRIPT_YAML_SCHEMAS_H
#define TSCRIPT_YAML_SCHEMAS_H

#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

#include "registry/schema.h"

/* One declaration: the parsed schema, where its func: value starts (1-based), and the
 * hashes of its name (ts_op_key's, computed once for the duplicate check here and the
 * operator table's lookups; 0 in a set built by hand: the registry computes them). */
typedef struct TsSchemaDecl {
    TsSchema *schema;
    int line, col;
    uint64_t hash_name, hash_full;
} TsSchemaDecl;

typedef struct TsSchemaSet {
    char *path;                /* the file name errors and the operator table cite */
    size_t n;
    TsSchemaDecl *decls;       /* in file order */
    TsArena *arena;            /* the schemas' memory (each holds a reference too) */
} TsSchemaSet;

/* Loads the file at path into *out (which the caller frees with ts_schema_set_free, also
 * after a failure). */
int ts_yaml_schemas_load(const char *path, TsSchemaSet *out, TsError *err);
/* The same from text in memory; name stands for the file in messages. Files of the plain
 * shape go through a fast scanner (schema_scan.h), the rest through libyaml. */
int ts_yaml_schemas_parse(const char *text, size_t len, const char *name, TsSchemaSet *out,
                          TsError *err);
/* The same, always through libyaml (the reference the fast scanner is tested against). */
int ts_yaml_schemas_parse_full(const char *text, size_t len, const char *name,
                               TsSchemaSet *out, TsError *err);
void ts_schema_set_free(TsSchemaSet *set);

/* ---- shared YAML plumbing --------------------------------------------------- */

/* Reads a whole file (at most 64 MiB) into a NUL-terminated malloc'd buffer. */
char *ts_yaml_read_file(const char *path, size_t *len, TsError *err);
/* Parses text as a single YAML document. *has_root is false for an empty stream (no
 * document, or an empty one). On failure sets err to "name:line:col: problem". The caller
 * deletes doc with yaml_document_delete() on success. */
int ts_yaml_load_document(const char *text, size_t len, const char *name, yaml_document_t *doc,
                          int *has_root, TsError *err);
/* Sets err to "name:line:col: message" at node's start (1-based); returns code. */
int ts_yaml_node_error(TsError *err, TsErrorCode code, const char *name, const yaml_node_t *node,
                       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The scalar text of node (NUL-terminated by libyaml), or NULL if node is not a scalar. */
const char *ts_yaml_scalar(const yaml_node_t *node);

#endif
