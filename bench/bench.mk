# bench/bench.mk — benchmarks (never part of make check): `make bench` builds them and runs
# bench/compare.py, which times the same workloads through PyTorch 1.13 and tscript, and the
# tensor workloads' floors (bench/baseline), and bench/sgemm.py (tscript's 1024-cube product
# against cblas_sgemm on the best core type, at 1 and 2 threads).
EXTRA_PROGRAMS += bench/tsbench
bench_tsbench_SOURCES = bench/tsbench.c

# The floors of the tensor workloads, timed in C: memcpy and OpenBLAS's own sgemm.
EXTRA_PROGRAMS += bench/baseline
bench_baseline_SOURCES = bench/baseline.c
bench_baseline_CFLAGS = $(AM_CFLAGS) $(OPENBLAS_CFLAGS)
bench_baseline_LDADD = $(OPENBLAS_LIBS)

# Loading a model saved by PyTorch, in process (see tsload.c and bench/models.py).
EXTRA_PROGRAMS += bench/tsload
bench_tsload_SOURCES = bench/tsload.c

# Startup as a whole process: wall time and the command's own max RSS (see startup.c).
EXTRA_PROGRAMS += bench/startup
bench_startup_SOURCES = bench/startup.c
bench_startup_LDADD =
# The interpreter loop, in process (make bench/interp_loop).
EXTRA_PROGRAMS += bench/interp_loop
bench_interp_loop_SOURCES = bench/interp_loop.c

EXTRA_DIST += bench/compare.py bench/workloads/loop.py bench/workloads/sort.py \
	bench/workloads/dict.py bench/workloads/strings.py bench/workloads/hello.py \
	bench/workloads/lstm.py bench/workloads/add.py bench/workloads/mm.py bench/workloads/fib.py \
	bench/models.py bench/sgemm.py
# bfloat16 models on aten-cpu alone against float32 and PyTorch's bfloat16 (run by hand:
# bench/bf16_cpu.py --tsload bench/tsload).
EXTRA_DIST += bench/bf16_cpu.py
# The GPU workloads (bench/gpu.py, run by t/gpu/check.sh on a machine with a GPU).
EXTRA_DIST += bench/gpu.py bench/workloads/gpu/tiny.py bench/workloads/gpu/add.py \
	bench/workloads/gpu/mm.py bench/cuda_costs.cu

.PHONY: bench
bench: bench/tsbench$(EXEEXT) bench/baseline$(EXEEXT) bench/interp_loop$(EXEEXT) \
		bench/startup$(EXEEXT) bench/tsload$(EXEEXT) tscript$(EXEEXT) $(pkglib_LTLIBRARIES)
	/usr/bin/python3 $(srcdir)/bench/compare.py --tscript $(abs_top_builddir)/tscript \
		--tsbench $(abs_top_builddir)/bench/tsbench \
		--baseline $(abs_top_builddir)/bench/baseline \
		--startup $(abs_top_builddir)/bench/startup
	/usr/bin/python3 $(srcdir)/bench/sgemm.py --tscript $(abs_top_builddir)/tscript \
		--tsbench $(abs_top_builddir)/bench/tsbench \
		--baseline $(abs_top_builddir)/bench/baseline
	/usr/bin/python3 $(srcdir)/bench/models.py --tsload $(abs_top_builddir)/bench/tsload \
		--tscript $(abs_top_builddir)/tscript
