#!/bin/sh
# nn_ops_cases.sh — the nn operators of t/nn_ops_cases.py, run by `tscript test` (its output
# is the TAP).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
exec "$builddir/tscript" test "$srcdir/t/nn_ops_cases.py"
