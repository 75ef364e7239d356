#!/bin/sh
# tensor_sweep4_cases.sh — the fourth tensor sweep of t/tensor_sweep4_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/tensor_sweep4_cases.py"
