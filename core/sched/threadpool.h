/* threadpool.h — the process's worker threads for torch.jit.fork (internal to core/sched).
 *
 * One pool per process, started on first use with the size the first runtime asks for
 * (ts_runtime_num_threads: $TSCRIPT_NUM_THREADS, the config, or the cores). Tasks run in
 * submission order; a task never blocks a worker on another task (an interpreter that waits
 * on an unfinished future suspends and is resubmitted when the future completes), so a pool
 * of one thread runs any fork graph. The pool drains and joins its threads at exit.
 */
#ifndef TSCRIPT_SCHED_THREADPOOL_H
#define TSCRIPT_SCHED_THREADPOOL_H

#include "tscript/error.h"

/* Queues fn(arg) on the pool, starting it with n_threads workers if it is not running. */
int ts_threadpool_submit(int n_threads, void (*fn)(void *arg), void *arg, TsError *err);
/* Runs every queued task, then stops and joins the workers (also registered with atexit). */
void ts_threadpool_shutdown(void);

#endif
