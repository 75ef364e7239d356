/* parallel.h — the intra-op parallel-for's settings (internal to the core; plugins use
 * ts_parallel_for and ts_parallel_num_threads from tscript/plugin.h).
 *
 * The thread count is process-wide, as ATen's is: each runtime sets it to its num_threads
 * when it opens, so the runtime opened last decides.
 */
#ifndef TSCRIPT_SCHED_PARALLEL_H
#define TSCRIPT_SCHED_PARALLEL_H

/* Sets the number of threads ts_parallel_for splits work over (the caller's thread counts;
 * n < 1 is taken as 1). Workers start on the first call that needs them. */
void ts_parallel_set_num_threads(int n);
/* Stops and joins the workers (also registered with atexit once they start). */
void ts_parallel_shutdown(void);

#endif
