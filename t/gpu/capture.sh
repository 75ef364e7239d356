#!/bin/sh
# gpu/capture.sh — CUDA graphs on a device (needs one and aten-cuda; skips otherwise):
# t/capture/cases.py and t/fuser/cases.py with their tensors on cuda (default_backend: cuda)
# print the same with cuda_graphs: true as without — numbers within float32 rounding — and
# the regions that run three times or more are captured (the executor's log says so).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tscript=$builddir/tscript
if ! nvidia-smi -L >/dev/null 2>&1 || [ ! -e "$builddir/plugins/aten-cuda/aten-cuda.la" ]; then
    echo "1..0 # SKIP no CUDA device"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpu_capture.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
base='plugins: [prim, aten-cpu, aten-cuda, fuser-cuda]\ndefault_backend: cuda\n'
printf "${base}cuda_graphs: true\n" >"$tmp/graphs.yaml"
printf "$base" >"$tmp/plain.yaml"
. "$srcdir/t/fuser/tap.sh"

for cases in "$srcdir/t/capture/cases.py" "$srcdir/t/fuser/cases.py"; do
    name=$(basename "$(dirname "$cases")")
    TSCRIPT_LOG_LEVEL='>>capture' "$tscript" --config "$tmp/graphs.yaml" run "$cases" \
        >"$tmp/on" 2>"$tmp/log"
    check $? "$name cases run on cuda with cuda_graphs" "$tmp/on" "$tmp/log"
    "$tscript" --config "$tmp/plain.yaml" run "$cases" >"$tmp/off" 2>&1
    check $? "... and without" "$tmp/off"
    close "$tmp/on" "$tmp/off"
    check $? "... printing the same" "$tmp/on" "$tmp/off"
    cp "$tmp/log" "$tmp/$name.log"
done
grep -q 'captured a region' "$tmp/capture.log"
check $? "the LSTM loop's regions are captured" "$tmp/capture.log"
! grep -q 'cannot be captured' "$tmp/capture.log"
check $? "... every one that came three times" "$tmp/capture.log"
done_testing
