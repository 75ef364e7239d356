#!/bin/sh
# class_sweep5_cases.sh — the saved-module and class sweep of t/class_sweep5_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/class_sweep5_cases.py"
