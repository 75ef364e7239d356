#!/bin/sh
# compose_stats_cases.sh — integrals, statistics and quantiles, t/compose_stats_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/compose_stats_cases.py"
