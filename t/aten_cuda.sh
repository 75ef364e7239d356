#!/bin/sh
# aten_cuda.sh — the aten-cuda plugin. Everywhere: the plugin loads with the CUDA runtime
# linked in, torch.cuda's functions answer, the cpu backend keeps working beside it, and
# every use of the GPU without one fails with "no CUDA device" (exit 1). With a device:
# each t/gpu/cuda_*.py gives the same numbers on cuda as on the cpu (within 1e-5,
# relative), and CUDA tensors print as PyTorch prints them. Skipped where configure found no CUDA Toolkit.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tscript=$builddir/tscript
if [ ! -f "$builddir/plugins/aten-cuda/aten-cuda.la" ]; then
    echo "1..0 # SKIP aten-cuda is not built (configure found no CUDA Toolkit)"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/aten_cuda.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

result() {  # result OK WHAT
    n=$((n + 1))
    if [ "$1" = 0 ]; then
        echo "ok $n - $2"
    else
        failed=$((failed + 1))
        echo "not ok $n - $2"
        tail -20 "$tmp/out" | sed 's/^/# stdout: /'
        sed 's/^/# stderr: /' "$tmp/err" | head -10
    fi
}

run() {  # run WANT_STATUS ARGS...
    want=$1
    shift
    "$tscript" "$@" >"$tmp/out" 2>"$tmp/err"
    [ "$?" -eq "$want" ]
}

printf 'plugins: [prim, aten-cpu, aten-cuda]\n' >"$tmp/cpu.yaml"
printf 'plugins: [prim, aten-cpu, aten-cuda]\ndefault_backend: cuda\n' >"$tmp/cuda.yaml"
cat >"$tmp/query.py" <<'PY'
import torch


def main():
    print(torch.cuda.device_count(), torch.cuda.is_available())
    print(torch.ones([2]) * 2)


def to_cuda():
    print(torch.ones([2]).cuda())


def factory():
    print(torch.zeros([2], device="cuda"))


def sync():
    torch.cuda.synchronize()
PY

run 0 --config "$tmp/cpu.yaml" run "$tmp/query.py"
result $? "the plugin loads beside the cpu backend"
count=$(sed -n '1s/ .*//p' "$tmp/out")
if [ "$count" = 0 ]; then
    [ "$(sed -n 1p "$tmp/out")" = "0 False" ]
    result $? "no device: device_count() is 0, is_available() False"
else
    [ "$(sed -n 1p "$tmp/out")" = "$count True" ]
    result $? "$count devices: is_available() True"
fi
[ "$(sed -n 2p "$tmp/out")" = " 2" ] && grep -qF "[ CPUFloatType{2} ]" "$tmp/out"
result $? "cpu tensors still compute on the cpu"
run 1 run "$tmp/query.py"
result $? "without aten-cuda in the config torch.cuda.device_count() does not compile (exit 1)"
grep -qF "Unknown builtin op: cuda::device_count." "$tmp/err"
result $? "... as in a PyTorch without CUDA"

if [ "$count" = 0 ]; then
    run 1 --config "$tmp/cpu.yaml" run "$tmp/query.py" -f to_cuda
    result $? "no device: .cuda() fails (exit 1)"
    grep -qF "RuntimeError: no CUDA device: " "$tmp/err"
    result $? "... saying no CUDA device"
    run 1 --config "$tmp/cpu.yaml" run "$tmp/query.py" -f factory
    result $? "no device: torch.zeros(device='cuda') fails (exit 1)"
    grep -qF "RuntimeError: no CUDA device: " "$tmp/err"
    result $? "... saying no CUDA device"
    run 1 --config "$tmp/cpu.yaml" run "$tmp/query.py" -f sync
    result $? "no device: torch.cuda.synchronize() fails (exit 1)"
    grep -qF "no CUDA device" "$tmp/err"
    result $? "... saying no CUDA device"
    run 1 --config "$tmp/cuda.yaml" run "$tmp/query.py"
    result $? "no device: default_backend cuda fails at the first tensor (exit 1)"
    grep -qF "no CUDA device" "$tmp/err"
    result $? "... saying no CUDA device"
    run 1 --config "$tmp/cpu.yaml" run --backend cuda "$srcdir/t/gpu/cuda_ops.py"
    result $? "no device: --backend cuda fails the same"
    echo "ok $((n + 1)) # SKIP no CUDA device: cuda results against the cpu's"
    n=$((n + 1))
else
    # every t/gpu/cuda_*.py: each line the same words, the numbers within 1e-5 (relative);
    # cuda_ops.py's last four lines print devices and a tensor, checked below
    for cases in "$srcdir"/t/gpu/cuda_*.py; do
        name=$(basename "$cases")
        run 0 --config "$tmp/cpu.yaml" run "$cases"
        result $? "$name on the cpu"
        mv "$tmp/out" "$tmp/cpu.out"
        run 0 --config "$tmp/cuda.yaml" run "$cases"
        result $? "$name with default_backend: cuda"
        skip=0
        [ "$name" = cuda_ops.py ] && skip=4
        awk -v skip="$skip" 'function num(s) { return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)(e[-+]?[0-9]+)?$/ }
             NR == FNR { a[FNR] = $0; na = FNR; next }
             { b[FNR] = $0; nb = FNR }
             END {
                 if (na != nb) { print "# line counts differ: " na " " nb; bad = 1 }
                 for (l = 1; l <= (na < nb ? na : nb) - skip; l++) {
                     x = a[l]; y = b[l]; gsub(/[][,()]/, " ", x); gsub(/[][,()]/, " ", y)
                     n1 = split(x, p, " "); n2 = split(y, q, " ")
                     if (n1 != n2) { bad++; if (bad <= 40) print "# line " l " differs: " a[l] " | " b[l]; continue }
                     for (i = 1; i <= n1; i++) {
                         if (num(p[i]) && num(q[i])) {
                             d = p[i] - q[i]; if (d < 0) d = -d
                             m = p[i] < 0 ? -p[i] : p[i]
                             if (d > 1e-5 * (m > 1 ? m : 1)) { bad++; if (bad <= 40) print "# line " l ": " a[l] " | " b[l]; break }
                         } else if (p[i] != q[i]) { bad++; if (bad <= 40) print "# line " l ": " a[l] " | " b[l]; break }
                     }
                 }
                 exit bad > 0
             }' "$tmp/cpu.out" "$tmp/out" >"$tmp/diff"
        st=$?
        cat "$tmp/diff"
        result $st "$name: the cpu's numbers on cuda"
        [ "$name" = cuda_ops.py ] && cp "$tmp/out" "$tmp/ops.out"
    done
    mv "$tmp/ops.out" "$tmp/out"
    tail -4 "$tmp/out" | head -1 | grep -qx "True cuda"
    result $? "a contiguous copy on cuda, and the device type is cuda"
    tail -3 "$tmp/out" >"$tmp/print"
    printf ' 3  3\n 3  3\n[ CUDAFloatType{2,2} ]\n' | cmp -s - "$tmp/print"
    result $? "a cuda tensor prints with PyTorch's CUDA footer"
fi
echo "1..$n"
[ "$failed" -eq 0 ]
