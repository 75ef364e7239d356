#!/bin/sh
# heap_cases.sh — strings, dicts and lists under many updates (t/heap_cases.py) under
# tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/heap_cases.py"
