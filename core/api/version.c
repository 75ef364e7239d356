/* version.c — the library's version and its embedding ABI version (tscript.h), so that a
 * program can check at run time that the library it loaded is the one it was built for. */
#include "tscript/tscript.h"

const char *ts_version(void) { return TS_VERSION; }

unsigned ts_abi_version(void) { return TS_ABI_VERSION; }
