#!/bin/sh
# aten_sweep3_cases.sh — t/aten_sweep3_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/aten_sweep3_cases.py"
