#!/bin/sh
# fuser_cuda.sh — the CUDA fuser (plugins/fuser-cuda) in a config, on any machine: the
# plugin loads without a driver or a device (it opens NVRTC and libcuda only when a group
# needs them), declares prim::FusionGroup beside fuser-cpu (the declarations are shared, the
# kernels are one per backend), and leaves programs on the cpu as they were: t/fuser/cases.py
# prints the same with it as without, nothing of it fused by fuser-cuda. The fused-against-
# unfused comparison on a device is t/gpu/fuser_cuda.sh.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tscript=$builddir/tscript
cases=$srcdir/t/fuser/cases.py
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fuser_cuda.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
printf 'plugins: [prim, aten-cpu]\n' >"$tmp/plain.yaml"
printf 'plugins: [prim, aten-cpu, fuser-cuda]\n' >"$tmp/cuda.yaml"
printf 'plugins: [prim, aten-cpu, fuser-cpu]\n' >"$tmp/cpu.yaml"
printf 'plugins: [prim, aten-cpu, fuser-cpu, fuser-cuda]\n' >"$tmp/both.yaml"
. "$srcdir/t/fuser/tap.sh"

"$tscript" --config "$tmp/cuda.yaml" run "$cases" >"$tmp/cuda" 2>&1
check $? "the fuser's cases run with fuser-cuda loaded" "$tmp/cuda"
"$tscript" --config "$tmp/plain.yaml" run "$cases" >"$tmp/plain" 2>&1
check $? "... and without a fuser" "$tmp/plain"
cmp -s "$tmp/cuda" "$tmp/plain"
check $? "they print the same, digit for digit" "$tmp/cuda" "$tmp/plain"
"$tscript" --config "$tmp/cuda.yaml" graph --optimized "$cases" -f unary 'torch.zeros(3)' \
    >"$tmp/graph" 2>&1
[ $? = 0 ] && ! grep -q FusionGroup "$tmp/graph" && grep -q 'aten::sqrt' "$tmp/graph"
check $? "cpu tensors: fuser-cuda fuses nothing" "$tmp/graph"
"$tscript" --config "$tmp/both.yaml" run "$cases" >"$tmp/both" 2>&1
check $? "the cases run with both fusers" "$tmp/both"
"$tscript" --config "$tmp/cpu.yaml" run "$cases" >"$tmp/cpu" 2>&1
cmp -s "$tmp/both" "$tmp/cpu" && cmp -s "$tmp/both" "$tmp/plain"
check $? "... printing what fuser-cpu alone and no fuser print" "$tmp/both" "$tmp/cpu"
"$tscript" --config "$tmp/both.yaml" graph --optimized "$cases" -f unary 'torch.zeros(3)' \
    >"$tmp/graph" 2>&1
[ "$(grep -c ' = prim::FusionGroup_[0-9]*(' "$tmp/graph")" = 1 ]
check $? "... fuser-cpu still fusing the cpu work" "$tmp/graph"
"$tscript" --config "$tmp/both.yaml" ops >"$tmp/ops" 2>&1
grep -q 'fuser-cpu  *cpu,cuda(fuser-cuda)  *prim::FusionGroup(\.\.\.) -> \.\.\.' "$tmp/ops"
check $? "one prim::FusionGroup, with a cpu and a cuda kernel" "$tmp/ops"

done_testing
