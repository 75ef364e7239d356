#!/bin/sh
# nn_ops_cases.sh — t/nn_ops_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/nn_ops_cases.py"
