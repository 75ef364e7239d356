/* tensorfile.h — values in the files users hand to `tscript run` and get back from it:
 * torch.save archives (a tensor, or lists, tuples and dicts of tensors and numbers) and
 * NumPy .npy arrays. The format is told by the file's contents, not its name.
 */
#ifndef TSCRIPT_TENSORFILE_H
#define TSCRIPT_TENSORFILE_H

#include "tscript/value.h"

/* The value in a torch.save file or a .npy file (a new reference in *out). */
int ts_tensorfile_load(const char *path, TsValue *out, TsError *err);
/* Writes v to path: as .npy when path ends in ".npy" (v must be a contiguous CPU tensor),
 * else as a torch.save archive torch.load reads. */
int ts_tensorfile_save(const char *path, TsValue v, TsError *err);

#endif
