/* interp.h — running compiled functions (internal to the core; the CLI and tests call it).
 *
 * ts_run builds the Code of a function and of everything it calls (once; it is kept in the
 * functions), then runs it in an InterpreterState: registers, a value stack for kernels,
 * and an explicit stack of call frames, so a deep TorchScript call chain never deepens the
 * C stack. torch.jit.fork runs its subgraph on the thread pool and returns a Future; a state
 * that waits on an unfinished future suspends and resumes when it completes, possibly on
 * another thread (the caller of ts_run blocks until its own state finishes). Kernels that
 * call TorchScript (sort's __lt__) run it in a nested state (see ts_interp_call).
 *
 * Errors come back as PyTorch prints them: err->code names the exception class and
 * err->msg is the whole text,
 *
 *     The following operation failed in the TorchScript interpreter.
 *     Traceback of TorchScript (most recent call last):
 *       File "x.py", line 9, in main
 *     <source excerpt of the call>
 *       File "x.py", line 4, in helper
 *     <source excerpt of the failing operation>
 *     builtins.ValueError: bad index 3
 *
 * and every value the run held has been released.
 */
#ifndef TSCRIPT_SCHED_INTERP_H
#define TSCRIPT_SCHED_INTERP_H

#include <stdbool.h>
#include <stdint.h>

#include "function.h"
#include "tscript/tscript.h"

/* Calls deeper than this fail with TS_ERR_LIMIT ("maximum recursion depth exceeded"). */
#define TS_INTERP_MAX_DEPTH 100000

/* Runs f with the n values in args (their references are taken, even on failure) and puts
 * its result in *out (a tuple when the graph returns several values, None when none). */
int ts_run(TsRuntime *rt, TsCompUnit *u, TsFunction *f, TsValue *args, size_t n,
           TsValue *out, TsError *err);

/* Kernels' calls into TorchScript (plugin.h's ts_call_function, in callback.c): the unit
 * of the program running the kernel that was handed call (NULL if call is not a running
 * kernel's), and the call itself, f's arguments borrowed, in a state nested in the
 * kernel's. */
const TsCompUnit *ts_interp_kernel_unit(const TsCall *call);
int ts_interp_call(TsCall *call, TsFunction *f, const TsValue *args, size_t n, TsValue *out);
/* The same for a Code built apart (a capture region's, capture.c): its n_outputs values
 * into out[] (new references); errors in call->error with the callee's traceback. */
struct TsCode;
/* The name of the function whose Code runs the kernel that was handed call, or NULL. */
const char *ts_interp_kernel_function(const TsCall *call);
int ts_interp_run_code(TsCall *call, const struct TsCode *code, const TsValue *args, size_t n,
                       TsValue *out);

/* The test hook: called before every operator kernel and call runs, with the node, its
 * input values as gathered for it, and bit i of moved set when input i was moved out of its
 * register at this (its last) use. ts_value_refcount() on a moved heap input then shows
 * whether anything but the operation still holds it. Process-wide; NULL turns it off. */
typedef void (*TsInterpHook)(void *ctx, const TsNode *node, size_t n_inputs,
                             const TsValue *inputs, uint64_t moved);
void ts_interp_set_hook(TsInterpHook hook, void *ctx);

#endif
