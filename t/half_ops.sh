#!/bin/sh
# half_ops.sh — aten-cpu's bfloat16 and float16 kernels against PyTorch 1.13's, op by op and
# on whole bfloat16 models, with aten-dnnl left out (t/half_ops.py says how). Skipped where no
# python3 has torch and torchvision.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
py=
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import torch, torchvision' >/dev/null 2>&1; then py=$p; break; fi
done
if [ -z "$py" ]; then
    echo "1..0 # SKIP no python3 with torch and torchvision"
    exit 0
fi
exec "$py" -W ignore "$srcdir/t/half_ops.py" "$builddir/tscript"
