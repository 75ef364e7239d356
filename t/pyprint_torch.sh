#!/bin/sh
# pyprint_torch.sh — t/pyprint_torch.py: PyTorch 1.13 loads and runs the code tscript's python
# printer writes. Needs python3-torch (Debian's /usr/bin/python3 has it); skipped without it.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
for py in /usr/bin/python3 python3; do
    if "$py" -c 'import torch' >/dev/null 2>&1; then
        exec "$py" "$srcdir/t/pyprint_torch.py" "$builddir" "$srcdir"
    fi
done
echo "1..0 # SKIP python3-torch is not installed"
