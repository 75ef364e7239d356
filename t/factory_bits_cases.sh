#!/bin/sh
# factory_bits_cases.sh — the wrong programs of t/factory_bits_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/factory_bits_cases.py"
