#!/bin/sh
# models_ops_cases.sh — what real models needed, from t/models_ops_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/models_ops_cases.py"
