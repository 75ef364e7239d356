#!/bin/sh
# interpolate_cases.sh — t/interpolate_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/interpolate_cases.py"
