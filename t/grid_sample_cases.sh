#!/bin/sh
# grid_sample_cases.sh — t/grid_sample_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/grid_sample_cases.py"
