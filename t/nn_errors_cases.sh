#!/bin/sh
# nn_errors_cases.sh — the wrong programs of t/nn_errors_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/nn_errors_cases.py"
