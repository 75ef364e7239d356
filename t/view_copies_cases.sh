#!/bin/sh
# view_copies_cases.sh — the *_copy forms of the view ops, t/view_copies_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/view_copies_cases.py"
