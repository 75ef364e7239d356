/* parser.h — Python source to Trees (ast.h), and the frontend's "not supported" checks.
 *
 * ts_parse_module() parses a whole file: every statement of Python 3's grammar that a
 * TorchScript file may carry (TorchScript functions and classes, imports, module-level
 * constants, `if __name__ == "__main__":` blocks with plain Python in them). Syntax errors
 * come back as TS_ERR_SYNTAX with a "~~~ <--- HERE" excerpt; inputs nested too deeply for
 * the parser's limits come back as TS_ERR_LIMIT, never as a C stack overflow.
 *
 * What PyTorch's frontend refuses in a compiled function (try blocks, lambdas, global, for
 * ... else, *args, ...) still parses; ts_parse_check_def() reports it, with PyTorch's
 * wording and range, when the emitter compiles that function.
 */
#ifndef TSCRIPT_PARSER_H
#define TSCRIPT_PARSER_H

#include "frontend/ast.h"
#include "frontend/lexer.h"

/* Recursion limit of the parser (nested brackets, blocks, unary operators, ...). */
enum { TS_PARSE_MAX_NESTING = 200 };
/* Depth limit of any tree it returns (long operator chains nest without recursion). */
enum { TS_PARSE_MAX_TREE_DEPTH = 1000 };

/* A MODULE tree, or NULL with err set. */
TsTree *ts_parse_module(TsSource *source, TsError *err);

/* One expression (a tuple when there are commas) filling source[start, end), as inside
 * brackets: newlines are ignored. For type strings and tests. NULL with err set. */
TsTree *ts_parse_expression(TsSource *source, size_t start, size_t end, TsError *err);

/* Reports the first construct in a DEF (its parameters and body) that PyTorch 1.13's
 * frontend rejects, with PyTorch's message ("try blocks aren't supported", "Lambda aren't
 * supported", ...). Returns 0 when there is none. */
int ts_parse_check_def(const TsTree *def, TsError *err);
/* The same for a def of an archive's code when archive is true, where the printer writes
 * what fork runs as a closure: a def without parameters inside the def. */
int ts_parse_check_code_def(const TsTree *def, bool archive, TsError *err);

#endif
