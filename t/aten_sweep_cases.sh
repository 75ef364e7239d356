#!/bin/sh
# aten_sweep_cases.sh — the pointwise-op cases of t/aten_sweep_cases.py, run by `tscript test`
# (its output is the TAP).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
exec "$builddir/tscript" test "$srcdir/t/aten_sweep_cases.py"
