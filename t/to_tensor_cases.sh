#!/bin/sh
# to_tensor_cases.sh — t/to_tensor_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/to_tensor_cases.py"
