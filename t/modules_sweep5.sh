#!/bin/sh
# modules_sweep5.sh — the module cases of the fifth sweep of saved modules and classes (t/modules_sweep5/*.py: scripted, traced, frozen) as t/modules_sweep.sh runs its own.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/t/modules_sweep.sh" "$srcdir/t/modules_sweep5"
