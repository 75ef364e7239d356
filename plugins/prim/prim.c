/* prim.c — the prim plugin's entry point: backend-independent kernels on scalars and
 * containers (PyTorch's register_prim_ops), declared by schemas/prim.yaml.
 *
 * The kernels live in one file per op family; each family exports a table (see prim.h) and
 * init registers every row for TS_BACKEND_ANY, so the same kernel runs whatever device the
 * program's tensors are on.
 */
#include "prim.h"

static const TsPrimTable *const tables[] = {
    &ts_prim_arith_table,
    &ts_prim_list_table,
    &ts_prim_list_order_table,
    &ts_prim_dict_table,
    &ts_prim_math_table,
    &ts_prim_complex_table,
    &ts_prim_str_table,
    &ts_prim_iter_table,
    &ts_prim_hash_table,
    &ts_prim_env_table,
    &ts_prim_module_table,
};

static int init(TsRegistry *r, TsError *err)
{
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        for (size_t i = 0; i < tables[t]->n; i++) {
            const TsPrimOp *op = &tables[t]->ops[i];
            for (const char *const *ov = op->overloads; *ov; ov++) {
                int rc = ts_register_kernel(r, op->qualname, *ov, TS_BACKEND_ANY, op->fn, err);
                if (rc)
                    return rc;
            }
        }
    }
    int rc = ts_prim_str_register_factories(r, err);
    return rc ? rc : ts_prim_env_register_factories(r, err);
}

/* prim_complex.yaml first: PyTorch declares an operator's complex overloads before its
 * Scalar one, which a complex argument matches as well (overloads are tried in order). */
static const char *const schema_files[] = {
    "prim_complex.yaml", "prim.yaml", "prim_containers.yaml", "prim_math.yaml", "prim_str.yaml",
    "prim_iter.yaml", "prim_env.yaml", NULL
};

TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = {
    TS_PLUGIN_ABI_VERSION, "prim", schema_files, init, NULL
};
