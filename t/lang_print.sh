#!/bin/sh
# lang_print.sh — the programs of t/data/lang print under `tscript run` exactly what
# PyTorch 1.13 printed for them (NAME.out, made with torch.jit.script(main)()): floats,
# containers, enums, unions and objects as print() shows them.
# Numbers are compared with the conformance suite's tolerance (t/outcmp.py), never byte for
# byte: the last printed digit of a float differs between CPUs.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tmp=${TMPDIR:-/tmp}/lang_print.$$
trap 'rm -f "$tmp" "$tmp.why"' EXIT
n=0 failed=0
for py in "$srcdir"/t/data/lang/*.py; do
    name=$(basename "$py" .py)
    n=$((n + 1))
    if "$builddir/tscript" run "$py" >"$tmp" 2>&1 && python3 "$srcdir/t/outcmp.py" "$srcdir/t/data/lang/$name.out" "$tmp" >"$tmp.why"; then
        echo "ok $n - t/data/lang/$name.py prints what PyTorch printed"
    else
        failed=$((failed + 1))
        echo "not ok $n - t/data/lang/$name.py prints what PyTorch printed"
        sed 's/^/# /' "$tmp.why"; head -20 "$tmp" | sed 's/^/# got: /'
    fi
done
echo "1..$n"
[ $failed -eq 0 ]
