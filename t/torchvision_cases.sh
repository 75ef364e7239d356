#!/bin/sh
# torchvision_cases.sh — t/torchvision_cases.py under tscript with plugins/torchvision
# loaded (t/cases.sh says how the case files run).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
TSCRIPT_CONFIG="$srcdir/plugins/torchvision/config.yaml"
export TSCRIPT_CONFIG
exec sh "$srcdir/t/cases.sh" "$srcdir/t/torchvision_cases.py"
