/* format.h — the cpu backend's tensor printer (format.c), registered as the backend's
 * tscript::format_tensor kernel, which core/value/print.c calls for print() and str().
 */
#ifndef TS_ATEN_CPU_FORMAT_H
#define TS_ATEN_CPU_FORMAT_H

#include "tscript/print.h"
#include "tscript/strbuf.h"
#include "tscript/tensor.h"

/* Appends t's text as TorchScript's print() shows it (no trailing newline) to out. */
int ts_cpu_format_tensor(const TsTensor *t, TsBuf *out, TsError *err);

#endif
