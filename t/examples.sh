#!/bin/sh
# examples.sh — every model in examples/ runs under `tscript run` and prints what
# PyTorch 1.13 printed for it (examples/NAME.out, made with torch.jit.script(main)()).
# Numbers are compared with the conformance suite's tolerance (t/outcmp.py), never byte for
# byte: the last printed digit of a float differs between CPUs.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tmp=${TMPDIR:-/tmp}/examples.$$
trap 'rm -f "$tmp" "$tmp.why"' EXIT
n=0 failed=0
for py in "$srcdir"/examples/*.py; do
    name=$(basename "$py" .py)
    n=$((n + 1))
    if "$builddir/tscript" run "$py" >"$tmp" 2>&1 && python3 "$srcdir/t/outcmp.py" "$srcdir/examples/$name.out" "$tmp" >"$tmp.why"; then
        echo "ok $n - examples/$name.py prints what PyTorch printed"
    else
        failed=$((failed + 1))
        echo "not ok $n - examples/$name.py prints what PyTorch printed"
        sed 's/^/# /' "$tmp.why"; head -20 "$tmp" | sed 's/^/# got: /'
    fi
done
# The README's quick start: a model saved by PyTorch (examples/model/make_model.py) on an
# input read from a .npy file.
n=$((n + 1))
model=$srcdir/examples/model
if "$builddir/tscript" run "$model/model.pt" "@$model/input.npy" >"$tmp" 2>&1 &&
    python3 "$srcdir/t/outcmp.py" "$model/model.out" "$tmp" >"$tmp.why"; then
    echo "ok $n - examples/model/model.pt on input.npy prints what PyTorch printed"
else
    failed=$((failed + 1))
    echo "not ok $n - examples/model/model.pt on input.npy prints what PyTorch printed"
    sed 's/^/# /' "$tmp.why"; head -20 "$tmp" | sed 's/^/# got: /'
fi
echo "1..$n"
[ $failed -eq 0 ]
