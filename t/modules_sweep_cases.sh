#!/bin/sh
# modules_sweep_cases.sh — the script-class corners of t/modules_sweep_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/modules_sweep_cases.py"
