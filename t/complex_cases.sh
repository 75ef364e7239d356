#!/bin/sh
# complex_cases.sh — the complex scalar of t/complex_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/complex_cases.py"
