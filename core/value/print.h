/* print.h — the value printer is public (plugins format values with it, embedders print
 * results): see tscript/print.h, which says what every value prints as. */
#include "tscript/print.h"
