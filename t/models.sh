#!/bin/sh
# models.sh — the models people ship (torchvision's classifiers, segmenters, detectors,
# keypoint and mask networks, video networks and optical flow, its scripted image transforms;
# torch.nn's Transformer layers, RNNs, attention, ...; some frozen), saved by PyTorch 1.13
# with random weights and run by tscript to PyTorch's results: t/models/check_models.py does
# it and prints TAP. Skipped where python3 has no torch and torchvision (CI installs them).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
py=/usr/bin/python3
[ -x "$py" ] || py=python3
if ! "$py" -c 'import torch, torchvision' >/dev/null 2>&1; then
    echo "1..0 # SKIP python3 has no torch and torchvision"
    exit 0
fi
exec "$py" "$srcdir/t/models/check_models.py" "$builddir/tscript"
