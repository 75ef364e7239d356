#!/bin/sh
# rnn_layers_cases.sh — t/rnn_layers_cases.py under tscript (t/cases.sh says how).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/cases.sh" "$srcdir/t/rnn_layers_cases.py"
