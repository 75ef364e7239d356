#!/bin/sh
# random_print.sh — the programs of t/data/random draw under `tscript run`, seeded, the numbers
# PyTorch 1.13 drew and printed for them (NAME.out, made with torch.jit.script(main)() after
# torch.manual_seed(0)): PyTorch's CPU generator and its kernels' draws (core/random.c,
# plugins/aten-cpu/create/random.c, nn/activation.c's rrelu). Numbers are compared with the
# conformance suite's tolerance (t/outcmp.py), never byte for
# byte: the last printed digit of a float differs between CPUs (and float32 randn's blocks
# are PyTorch's AVX2 approximations of log, sin and cos, ours libm's).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tmp=${TMPDIR:-/tmp}/random_print.$$
trap 'rm -f "$tmp" "$tmp.why"' EXIT
n=0 failed=0
for py in "$srcdir"/t/data/random/*.py; do
    name=$(basename "$py" .py)
    n=$((n + 1))
    if "$builddir/tscript" run "$py" >"$tmp" 2>&1 && python3 "$srcdir/t/outcmp.py" "$srcdir/t/data/random/$name.out" "$tmp" >"$tmp.why"; then
        echo "ok $n - t/data/random/$name.py prints what PyTorch printed"
    else
        failed=$((failed + 1))
        echo "not ok $n - t/data/random/$name.py prints what PyTorch printed"
        sed 's/^/# /' "$tmp.why"; head -20 "$tmp" | sed 's/^/# got: /'
    fi
done
# a fresh process starts at seed 0, as PyTorch's reference after torch.manual_seed(0)
printf 'import torch\ndef main():\n    print(torch.rand(3))\n' > "$tmp.py"
printf 'import torch\ndef main():\n    torch.manual_seed(%s)\n    print(torch.rand(3))\n' 0 > "$tmp.0.py"
check() {
    n=$((n + 1))
    if [ "$1" = "$2" ] && [ -n "$1" ]; then echo "ok $n - $3"; else
        failed=$((failed + 1)); echo "not ok $n - $3"; echo "# '$1' against '$2'"; fi
}
check "$("$builddir/tscript" run "$tmp.py")" "$("$builddir/tscript" run "$tmp.0.py")" \
    "unseeded, the draws of seed 0"
rm -f "$tmp.py" "$tmp.0.py"
echo "1..$n"
[ $failed -eq 0 ]
