#!/bin/sh
# torchvision_compare.sh — plugins/torchvision against torchvision 0.14 itself: every
# operator on seeded random inputs (t/torchvision_compare.py writes the program), run by
# PyTorch with torchvision and by tscript with plugins/torchvision/config.yaml; the printed
# results must agree within t/outcmp.py's tolerance (rel 1e-4). Skipped where no python3 has
# torch and torchvision.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tmp=${TMPDIR:-/tmp}/torchvision_compare.$$
trap 'rm -f "$tmp".py "$tmp".want "$tmp".got "$tmp".why' EXIT
py=
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import torch, torchvision' >/dev/null 2>&1; then py=$p; break; fi
done
if [ -z "$py" ]; then
    echo "1..0 # SKIP no python3 with torch and torchvision"
    exit 0
fi
status=0
"$py" "$srcdir/t/torchvision_compare.py" "$tmp.py" &&
    "$py" "$tmp.py" >"$tmp.want" 2>"$tmp.why" || {
    echo "1..0 # SKIP PyTorch did not run the comparison program"; sed 's/^/# /' "$tmp.why"; exit 0
}
"$builddir/tscript" --config "$srcdir/plugins/torchvision/config.yaml" run "$tmp.py" \
    >"$tmp.got" 2>&1 || status=$?
"$py" "$srcdir/t/torchvision_compare.py" --tap "$tmp.want" "$tmp.got" || status=1
[ $status -eq 0 ] || tail -5 "$tmp.got" | cut -c1-300 | sed 's/^/# tscript: /'
exit $status
