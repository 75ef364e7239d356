#!/bin/sh
# reliability_ts_cases.sh — t/reliability_ts_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/reliability_ts_cases.py"
