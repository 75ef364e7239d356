/* strbuf.h — TsBuf is public (plugins build text with it): see tscript/strbuf.h. */
#include "tscript/strbuf.h"
