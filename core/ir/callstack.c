/* callstack.c — the inlined call stacks of nodes (TsCallSite, see ir.h).
 *
 * The inliner (ir/passes/inline.c) copies a callee's nodes into its caller; a run-time
 * error in such a node must still print the traceback the call would have printed, frame
 * by frame. Each copied node therefore points at an entry naming the callee and the call's
 * source range, chained outward through the calls it was itself inlined into. Entries are
 * shared by many nodes and by the graph copies of those nodes, hence the reference count;
 * graphs may be copied on several threads (an optimized graph is read by whoever asks for
 * it), so the count is atomic.
 */
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

TsCallSite *ts_callsite_new(const TsCallSite *outer, const char *callee, TsSourceRange range,
                            TsError *err)
{
    TsCallSite *c = calloc(1, sizeof *c);
    char *q = c ? strdup(callee) : NULL;
    if (!q) {
        free(c);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    const char *dot = strrchr(q, '.');
    c->callee = q;
    c->name = dot ? dot + 1 : q;
    c->outer = outer ? ts_callsite_retain(outer) : NULL;
    if (range.source)
        ts_source_retain(range.source);
    c->range = range;
    c->refs = 1;
    return c;
}

const TsCallSite *ts_callsite_retain(const TsCallSite *c)
{
    if (c)
        __atomic_add_fetch(&((TsCallSite *)c)->refs, 1, __ATOMIC_RELAXED);
    return c;
}

void ts_callsite_release(const TsCallSite *c)
{
    /* iterative: a long chain whose last reference goes must not recurse once per entry */
    while (c && __atomic_sub_fetch(&((TsCallSite *)c)->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        TsCallSite *dead = (TsCallSite *)c;
        c = dead->outer;
        if (dead->range.source)
            ts_source_release(dead->range.source);
        free(dead->callee);
        free(dead);
    }
}

void ts_node_set_callstack(TsNode *n, const TsCallSite *c)
{
    ts_callsite_retain(c);
    ts_callsite_release(n->callstack);
    n->callstack = c;
}
