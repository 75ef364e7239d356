#!/bin/sh
# out_variants.sh — every out= form schemas/aten_out.yaml declares is in the operator table as
# written (PyTorch's text) with a cpu kernel (engine/out_variants.c's adaptor). A schema added to the file without a row in the adaptor's
# table would be declared without a kernel: `tscript ops` shows it with no backend.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tscript=$builddir/tscript
tmp=$(mktemp -d "${TMPDIR:-/tmp}/out_variants.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
"$tscript" ops >"$tmp/ops" 2>&1 || { echo "not ok 1 - tscript ops failed"; echo "1..1"; exit 0; }
sed -n 's/^- func: //p' "$srcdir/schemas/aten_out.yaml" >"$tmp/schemas"
total=$(wc -l <"$tmp/schemas")
missing=0
nokernel=0
while IFS= read -r schema; do
    line=$(grep -F -- " $schema" "$tmp/ops" | head -n 1)
    if [ -z "$line" ]; then
        missing=$((missing + 1))
        echo "# not declared: $schema"
    else
        case "$line" in
        "aten-cpu   cpu "*) ;;
        *) nokernel=$((nokernel + 1)); echo "# no cpu kernel: $line" ;;
        esac
    fi
done <"$tmp/schemas"
[ "$total" -gt 150 ] && echo "ok 1 - aten_out.yaml declares $total out= forms" ||
    echo "not ok 1 - aten_out.yaml declares only $total out= forms"
[ $missing = 0 ] && echo "ok 2 - each is in the operator table as written" ||
    echo "not ok 2 - $missing not in the operator table as written"
[ $nokernel = 0 ] && echo "ok 3 - each has aten-cpu's kernel" ||
    echo "not ok 3 - $nokernel without a cpu kernel"
echo "1..3"
