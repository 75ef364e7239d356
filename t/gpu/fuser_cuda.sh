#!/bin/sh
# gpu/fuser_cuda.sh — the CUDA fuser on a device (needs one, and the aten-cuda plugin; skips
# otherwise): t/fuser/cases.py with its tensors made on cuda (default_backend: cuda) prints
# the same fused (fuser-cuda), unfused and with the optimizer off — numbers within float32
# rounding, since a fused kernel keeps intermediates in registers and its tanh or exp need
# not be aten-cuda's to the last bit — and the work is fused: the LSTM cell in one group, its
# products in it (computed by the kernel when small, by aten::mm first when not, or always,
# TSCRIPT_CUDA_FUSED_MM=0), its chunk moved to the tensors the gates add (a broadcasting
# chunk: the gates are never written), where the cpu makes two (t/fuser_cpu.sh).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tscript=$builddir/tscript
cases=$srcdir/t/fuser/cases.py
if ! nvidia-smi -L >/dev/null 2>&1 || [ ! -e "$builddir/plugins/aten-cuda/aten-cuda.la" ]; then
    echo "1..0 # SKIP no CUDA device"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpu_fuser.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
printf 'plugins: [prim, aten-cpu, aten-cuda, fuser-cuda]\ndefault_backend: cuda\n' >"$tmp/fused.yaml"
printf 'plugins: [prim, aten-cpu, aten-cuda]\ndefault_backend: cuda\n' >"$tmp/plain.yaml"
. "$srcdir/t/fuser/tap.sh"

"$tscript" --config "$tmp/fused.yaml" run "$cases" >"$tmp/fused" 2>&1
check $? "the cases run on cuda, fused" "$tmp/fused"
"$tscript" --config "$tmp/plain.yaml" run "$cases" >"$tmp/plain" 2>&1
check $? "... unfused" "$tmp/plain"
"$tscript" --config "$tmp/fused.yaml" --no-opt run "$cases" >"$tmp/noopt" 2>&1
check $? "... and with the optimizer off" "$tmp/noopt"
close "$tmp/fused" "$tmp/plain"
check $? "fused and unfused print the same (within float32 rounding)" "$tmp/fused" "$tmp/plain"
close "$tmp/fused" "$tmp/noopt"
check $? "... as does the unoptimized run" "$tmp/noopt"

cell="torch.randn(2,7) torch.randn(2,8) torch.randn(2,8) torch.randn(32,7) torch.randn(32,8) torch.randn(32) torch.randn(32)"
# shellcheck disable=SC2086
"$tscript" --config "$tmp/fused.yaml" graph --optimized "$cases" -f cell $cell >"$tmp/graph" 2>&1
[ "$(grep -c ' = prim::FusionGroup_[0-9]*(' "$tmp/graph")" = 1 ] &&
    grep -q 'prim::BroadcastingChunk\[chunks=4, dim=1\]' "$tmp/graph" && ! grep -q 'aten::chunk' "$tmp/graph" &&
    ! sed '/^with prim::FusionGroup/,$d' "$tmp/graph" | grep -q ' = aten::mm('  # the Subgraph has them
check $? "the LSTM cell on cuda: one group with its products, the chunk moved to the tensors the gates add" "$tmp/graph"
"$tscript" --config "$tmp/fused.yaml" run "$cases" -f pre_chunk_bad 'torch.zeros(2,4)' 'torch.zeros(4)' \
    >"$tmp/bad.out" 2>"$tmp/bad.err"
[ $? = 1 ] && grep -q 'Expected 3 elements in a list but found 2' "$tmp/bad.err"
check $? "a broadcasting chunk of too few pieces fails as unpacking does" "$tmp/bad.err"
"$tscript" --config "$tmp/plain.yaml" run "$cases" -f pre_chunk_bad 'torch.zeros(2,4)' 'torch.zeros(4)' \
    >"$tmp/bad.out" 2>"$tmp/bad2.err"
[ $? = 1 ] && [ "$(tail -1 "$tmp/bad.err")" = "$(tail -1 "$tmp/bad2.err")" ]
check $? "... with the unfused run's message" "$tmp/bad.err" "$tmp/bad2.err"
TSCRIPT_CUDA_FUSED_MM=0 "$tscript" --config "$tmp/fused.yaml" run "$cases" >"$tmp/fused_mm" 2>&1
check $? "the cases run on cuda, fused, every product by aten::mm" "$tmp/fused_mm"
close "$tmp/fused_mm" "$tmp/plain"
check $? "... and print what the unfused run prints" "$tmp/fused_mm" "$tmp/plain"
bad="torch.zeros(2,7) torch.zeros(2,8) torch.zeros(2,8) torch.zeros(32,6) torch.zeros(32,8) torch.zeros(32) torch.zeros(32)"
for limit in "" 0; do
    # shellcheck disable=SC2086
    TSCRIPT_CUDA_FUSED_MM=$limit "$tscript" --config "$tmp/fused.yaml" run "$cases" -f cell $bad \
        >"$tmp/bad.out" 2>"$tmp/bad.err"
    [ $? = 1 ] && grep -q 'mat1 and mat2 shapes cannot be multiplied (2x7 and 6x32)' "$tmp/bad.err"
    check $? "a product in the group of mismatched shapes fails as aten::mm does${limit:+ (by aten::mm)}" "$tmp/bad.err"
done
"$tscript" --config "$tmp/fused.yaml" graph --optimized "$cases" -f unary 'torch.zeros(3, dtype=torch.float64)' \
    >"$tmp/graph" 2>&1
[ "$(grep -c ' = prim::FusionGroup_[0-9]*(' "$tmp/graph")" = 1 ]
check $? "float64 on cuda is fused too" "$tmp/graph"

done_testing
