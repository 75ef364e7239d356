#!/bin/sh
# out_variants_cases.sh — the out= forms of t/out_variants_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/out_variants_cases.py"
