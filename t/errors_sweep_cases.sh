#!/bin/sh
# errors_sweep_cases.sh — the wrong programs of t/errors_sweep_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/errors_sweep_cases.py"
