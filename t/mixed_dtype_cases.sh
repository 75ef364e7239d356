#!/bin/sh
# mixed_dtype_cases.sh — t/mixed_dtype_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/mixed_dtype_cases.py"
