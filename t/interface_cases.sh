#!/bin/sh
# interface_cases.sh — class interfaces and their method signatures, t/interface_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/interface_cases.py"
