# bench/bench.mk — benchmarks (never part of make check): `make bench` builds them and runs
# bench/compare.py, which times the same workloads through PyTorch 1.13 and tscript.
EXTRA_PROGRAMS += bench/tsbench
bench_tsbench_SOURCES = bench/tsbench.c
bench_tsbench_CPPFLAGS = $(TEST_CPPFLAGS)
bench_tsbench_LDADD = $(TEST_LDADD)
bench_tsbench_LDFLAGS = -no-install

EXTRA_DIST += bench/compare.py bench/workloads/loop.py bench/workloads/sort.py \
	bench/workloads/dict.py bench/workloads/hello.py

.PHONY: bench
bench: bench/tsbench$(EXEEXT) bench/interp_loop$(EXEEXT) tscript$(EXEEXT) $(pkglib_LTLIBRARIES)
	/usr/bin/python3 $(srcdir)/bench/compare.py --tscript $(abs_top_builddir)/tscript \
		--tsbench $(abs_top_builddir)/bench/tsbench
