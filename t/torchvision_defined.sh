#!/bin/sh
# torchvision_defined.sh — t/torchvision_defined.py under tscript with plugins/torchvision
# loaded: inputs torchvision leaves undefined (t/cases.sh says how case files run).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
TSCRIPT_CONFIG="$srcdir/plugins/torchvision/config.yaml"
export TSCRIPT_CONFIG
exec sh "$srcdir/t/cases.sh" "$srcdir/t/torchvision_defined.py"
