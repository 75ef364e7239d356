#!/bin/sh
# sweep5_cases.sh — the fifth language sweep of t/sweep5_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/sweep5_cases.py"
