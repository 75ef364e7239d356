#!/bin/sh
# loss_cases.sh — the losses, distances and contractions of t/loss_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/loss_cases.py"
