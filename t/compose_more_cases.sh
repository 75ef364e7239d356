#!/bin/sh
# compose_more_cases.sh — ops composed from others, t/compose_more_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/compose_more_cases.py"
