#!/bin/sh
# examples.sh — every model in examples/ runs under `tscript run` and prints exactly what
# PyTorch 1.13 printed for it (examples/NAME.out, made with torch.jit.script(main)()).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tmp=${TMPDIR:-/tmp}/examples.$$
trap 'rm -f "$tmp"' EXIT
n=0 failed=0
for py in "$srcdir"/examples/*.py; do
    name=$(basename "$py" .py)
    n=$((n + 1))
    if "$builddir/tscript" run "$py" >"$tmp" 2>&1 && cmp -s "$tmp" "$srcdir/examples/$name.out"; then
        echo "ok $n - examples/$name.py prints what PyTorch printed"
    else
        failed=$((failed + 1))
        echo "not ok $n - examples/$name.py prints what PyTorch printed"
        diff "$srcdir/examples/$name.out" "$tmp" | head -20 | sed 's/^/# /'
    fi
done
echo "1..$n"
[ $failed -eq 0 ]
