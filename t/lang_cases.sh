#!/bin/sh
# lang_cases.sh — the language corners of t/lang_cases.py, run by `tscript test` (its output
# is the TAP).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
exec "$builddir/tscript" test "$srcdir/t/lang_cases.py"
