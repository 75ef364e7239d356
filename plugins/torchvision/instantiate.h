/* instantiate.h — expands a per-dtype template file twice: once for float32, once for
 * float64, the two dtypes torchvision's CPU kernels dispatch on (AT_DISPATCH_FLOATING_TYPES).
 *
 *     #define TV_TEMPLATE "roi_align_t.h"
 *     #include "instantiate.h"
 *
 * The template sees TV_T (the scalar type), TV_FN(name) (name_f32 / name_f64: the names it
 * defines) and TV_ROUND (std::round's overload for TV_T). No include guard: each include
 * instantiates its own TV_TEMPLATE.
 */
#define TV_T float
#define TV_FN(name) name##_f32
#define TV_ROUND roundf
#include TV_TEMPLATE
#undef TV_T
#undef TV_FN
#undef TV_ROUND

#define TV_T double
#define TV_FN(name) name##_f64
#define TV_ROUND round
#include TV_TEMPLATE
#undef TV_T
#undef TV_FN
#undef TV_ROUND

#undef TV_TEMPLATE
