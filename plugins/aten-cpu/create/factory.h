/* factory.h — what the factory functions of create/ (factory.c, create.c, random.c) share:
 * the reading of the argument tail every one of them ends with (create.c).
 */
#ifndef TS_ATEN_CPU_FACTORY_H
#define TS_ATEN_CPU_FACTORY_H

#include <stddef.h>

#include "tscript/aten.h"

/* Reads the tail every factory ends with, arguments i to i + 3 (ScalarType? dtype,
 * Layout? layout, Device? device, bool? pin_memory): sets *dtype unless dtype is None, and
 * refuses what the cpu backend cannot make. */
int ts_cpu_factory_args(TsArgs *a, size_t i, int *dtype);

#endif
