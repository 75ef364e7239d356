#!/bin/sh
# nn_modules_sweep.sh — torch.nn modules in the configurations real models use (convolutions,
# norms in train and eval mode, recurrent layers, attention, resampling, activations,
# pooling, containers, losses), scripted and saved by PyTorch 1.13 at test time and run by
# tscript to PyTorch's results: t/nn_modules_sweep.py does it and prints TAP. Skipped where
# python3 has no torch (CI installs it).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
py=/usr/bin/python3
[ -x "$py" ] || py=python3
if ! "$py" -c 'import torch' >/dev/null 2>&1; then
    echo "1..0 # SKIP python3 has no torch"
    exit 0
fi
exec "$py" "$srcdir/t/nn_modules_sweep.py" "$builddir/tscript"
