#!/bin/sh
# gpu/models.sh — real models saved by PyTorch 1.13 (t/gpu/make_models.py: three torchvision
# classifiers and an LSTM tagger) run unchanged on cuda by configuration and print what they
# print on the cpu, within float32 rounding of a different summation order (a relative
# 1e-3 of each number, or of a hundredth of the largest). Needs a device and the archives (MODELS, or .gpu/build/models from
# t/gpu/bundle.sh); skips otherwise.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tscript=$builddir/tscript
models=${MODELS:-$builddir/models}
if ! nvidia-smi -L >/dev/null 2>&1 || [ ! -e "$builddir/plugins/aten-cuda/aten-cuda.la" ] ||
    ! ls "$models"/*.pt >/dev/null 2>&1; then
    echo "1..0 # SKIP no CUDA device, or no models (t/gpu/make_models.py)"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpu_models.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
printf 'plugins: [prim, aten-cpu, aten-cuda, fuser-cuda]\n' >"$tmp/cpu.yaml"
printf 'plugins: [prim, aten-cpu, aten-cuda, fuser-cuda]\ndefault_backend: cuda\n' >"$tmp/cuda.yaml"
cat >"$tmp/close.py" <<'PY'
import re, sys
num = re.compile(r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)")
def words(path):
    text = open(path).read().replace("CUDA", "").replace("CPU", "")
    return num.sub(" N ", text).split(), [float(x) for x in num.findall(text)]
wa, na = words(sys.argv[1])
wb, nb = words(sys.argv[2])
if wa != wb or len(na) != len(nb):
    sys.exit("the outputs differ in their words or their count of numbers")
top = max([abs(a) for a in na] + [1e-30])
for a, b in zip(na, nb):
    if abs(a - b) > 1e-3 * max(abs(a), 1e-2 * top):
        sys.exit("%r and %r differ by more than a relative 1e-3" % (a, b))
PY
n=0
failed=0
for pt in "$models"/*.pt; do
    name=$(basename "$pt" .pt)
    n=$((n + 1))
    "$tscript" --config "$tmp/cpu.yaml" run "$pt" "@${pt%.pt}.npy" >"$tmp/cpu" 2>&1 &&
        "$tscript" --config "$tmp/cuda.yaml" run "$pt" "@${pt%.pt}.npy" >"$tmp/cuda" 2>&1 &&
        grep -q 'CUDA' "$tmp/cuda" && python3 "$tmp/close.py" "$tmp/cpu" "$tmp/cuda" >"$tmp/why" 2>&1
    if [ $? -eq 0 ]; then
        echo "ok $n - $name on cuda prints what it prints on the cpu"
    else
        failed=$((failed + 1))
        echo "not ok $n - $name on cuda prints what it prints on the cpu"
        for f in why cpu cuda; do [ -f "$tmp/$f" ] && sed "s/^/# $f: /" "$tmp/$f" | head -12; done
    fi
    rm -f "$tmp/cpu" "$tmp/cuda" "$tmp/why"
done
echo "1..$n"
[ $failed -eq 0 ]
