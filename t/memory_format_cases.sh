#!/bin/sh
# memory_format_cases.sh — t/memory_format_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/memory_format_cases.py"
