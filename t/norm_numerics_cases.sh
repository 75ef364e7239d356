#!/bin/sh
# norm_numerics_cases.sh — t/norm_numerics_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/norm_numerics_cases.py"
