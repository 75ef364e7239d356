#!/bin/sh
# upgrade.sh — archives of older versions keep their meaning: t/data/upgrade/ops_vN.pt is a
# module saved by PyTorch 1.13 with its version record set to N (make.py there), calling the
# operators whose meaning changed (integer div truncated up to version 3, full of an int
# filled floats up to 4, linspace/logspace); tscript must print what PyTorch 1.13 printed
# for each (ops_vN.out), its numbers compared by t/outcmp.py.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tmp=${TMPDIR:-/tmp}/upgrade.$$
trap 'rm -f "$tmp" "$tmp.why"' EXIT
n=0 failed=0
for pt in "$srcdir"/t/data/upgrade/ops_v*.pt; do
    name=$(basename "$pt" .pt)
    n=$((n + 1))
    if "$builddir/tscript" run "$pt" 'torch.tensor([7, -7, 9])' 'torch.tensor([2, 2, -4])' \
            >"$tmp" 2>&1 &&
        python3 "$srcdir/t/outcmp.py" "$srcdir/t/data/upgrade/$name.out" "$tmp" >"$tmp.why"; then
        echo "ok $n - $name.pt means what it meant when saved"
    else
        failed=$((failed + 1))
        echo "not ok $n - $name.pt means what it meant when saved"
        sed 's/^/# /' "$tmp.why"; head -20 "$tmp" | sed 's/^/# got: /'
    fi
done
echo "1..$n"
[ $failed -eq 0 ]
