#!/bin/sh
# embedding_bag_cases.sh — t/embedding_bag_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/embedding_bag_cases.py"
