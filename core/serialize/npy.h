/* npy.h — NumPy's .npy format (versions 1.0, 2.0, 3.0), for tensors given on the command
 * line (`tscript run model.pt @x.npy`) and results written with --output.
 *
 * Supported dtypes are those with a tensor dtype: bool, uint8, int8, int16, int32, int64,
 * float16, float32, float64, complex64, complex128, in either byte order (swapped to the
 * machine's on read), C or Fortran order (a Fortran array becomes a tensor with transposed
 * strides). The header is untrusted: sizes are checked against the data, and a shape whose
 * element count overflows is refused.
 */
#ifndef TSCRIPT_NPY_H
#define TSCRIPT_NPY_H

#include <stddef.h>

#include "tscript/strbuf.h"
#include "tscript/value.h"

/* A CPU tensor (fresh memory) from the .npy bytes; name is used in messages. */
TsTensor *ts_npy_read(const char *name, const void *data, size_t size, TsError *err);
/* Appends t as a version 1.0 .npy (the header of a tensor of up to 64 dimensions always
 * fits 1.0's). t must be a contiguous CPU tensor (the caller makes it so); bfloat16 and
 * the other dtypes numpy lacks are refused. */
int ts_npy_write(const TsTensor *t, TsBuf *out, TsError *err);

#endif
