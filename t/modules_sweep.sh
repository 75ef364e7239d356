#!/bin/sh
# modules_sweep.sh — module cases from a sweep of variations on the conformance suite's
# module cases (t/modules_sweep/*.py), saved by PyTorch 1.13 at test time and run by tscript
# to PyTorch's printed output: t/modules_sweep/check.py does it and prints TAP. Skipped
# where python3 has no torch (CI installs it). An argument names another folder of cases.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
py=/usr/bin/python3
[ -x "$py" ] || py=python3
if ! "$py" -c 'import torch' >/dev/null 2>&1; then
    echo "1..0 # SKIP python3 has no torch"
    exit 0
fi
exec "$py" "$srcdir/t/modules_sweep/check.py" "$builddir/tscript" ${1:+--dir "$1"}
