#!/bin/sh
# lang_sweep4_cases.sh — the fourth language sweep of t/lang_sweep4_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/lang_sweep4_cases.py"
