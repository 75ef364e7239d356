/* graph_internal.h — what the IR's own files share and nobody else sees.
 *
 * The Graph's private state (insertion point, value numbering, the debug-name tables, the
 * list of every node it owns) and a node's bookkeeping beyond the public TsNode (its slot in
 * that list and its position in program order for ts_node_is_before).
 */
#ifndef TSCRIPT_IR_GRAPH_INTERNAL_H
#define TSCRIPT_IR_GRAPH_INTERNAL_H

#include "ir/ir.h"

/* A string-keyed hash table (open addressing, tombstones); keys are owned copies. */
typedef struct TsNameEntry {
    char *key;                 /* NULL: empty; TS_NAME_TOMBSTONE: deleted */
    TsIrValue *value;          /* names: the holder */
    size_t number;             /* suffixes: the next ".N" to try for this base */
} TsNameEntry;

typedef struct TsNameMap {
    TsNameEntry *slots;
    size_t cap, used;          /* used counts tombstones too */
} TsNameMap;

struct TsGraph {
    TsBlock *block;            /* the top block */
    TsNode *insert_before;     /* insertion point */
    size_t next_unique;
    TsNode **all;              /* every node the graph owns, inserted or not */
    size_t n_all, cap_all;
    TsNameMap names;           /* debug name -> value */
    TsNameMap suffixes;        /* name base -> next suffix (PyTorch's rule) */
    bool spell_dynamic;        /* print the unrefined Tensor as "Dynamic" (see parse.c) */
};

typedef struct TsNodeImpl {
    TsNode pub;                /* first: a TsNode * is a TsNodeImpl * */
    size_t slot;               /* index in graph->all */
    int64_t topo;              /* position in the owning block, ordered like the list */
} TsNodeImpl;

static inline TsNodeImpl *ts_node_impl(const TsNode *n) { return (TsNodeImpl *)n; }

TsNameEntry *ts_namemap_find(const TsNameMap *m, const char *key);
TsNameEntry *ts_namemap_insert(TsNameMap *m, const char *key);   /* NULL on OOM */
void ts_namemap_remove(TsNameMap *m, const char *key);
void ts_namemap_free(TsNameMap *m);
bool ts_namemap_is_live(const TsNameEntry *e);   /* a slot holding a key */

/* Frees v (removing its name from the graph's table); its uses must be gone. */
void ts_irvalue_free(TsGraph *g, TsIrValue *v);
/* A new value defined by n at offset, numbered by the graph. */
TsIrValue *ts_irvalue_new(TsNode *n, size_t offset, const TsType *type, TsError *err);
/* Records that user's input `offset` is v; -1 on out-of-memory. */
int ts_irvalue_add_use(TsIrValue *v, TsNode *user, size_t offset);
/* A new block owned by owner (NULL: the top block), with its Param and Return nodes. */
TsBlock *ts_block_new(TsGraph *g, TsNode *owner, TsError *err);
/* Frees n's own memory (outputs, attributes, block structs) but not its blocks' nodes:
 * for tearing down a whole graph, where every node is freed this way. */
void ts_node_free(TsNode *n);
/* Frees one attribute's payload. */
void ts_attr_clear(TsAttr *a);
/* Deep copy of src into dst (graphs copied, tensors and ivalues retained). */
int ts_attr_copy(TsAttr *dst, const TsAttr *src, TsError *err);

/* Is the name all digits ("25"): a value's number rather than a debug name? */
bool ts_ir_name_is_number(const char *s);

#endif
