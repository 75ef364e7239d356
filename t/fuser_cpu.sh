#!/bin/sh
# fuser_cpu.sh — the CPU fuser (plugins/fuser-cpu), on by default: runs of pointwise
# float32 operators become prim::FusionGroup nodes in the optimized graph, and fusing
# never changes a result: t/fuser/cases.py prints the same with the fuser, without it (a
# config without the plugin) and with the optimizer off — outputs of several shapes from one
# group, numbers that are not constants, strided and broadcast inputs, nan and inf, empty
# and 0-dim tensors, a tensor of many blocks. What it must not fuse: integer and float64
# tensors, graphs whose types are unknown, and anything with the optimizer off.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tscript=$builddir/tscript
cases=$srcdir/t/fuser/cases.py
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fuser.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# the default config less the fuser (aten-dnnl, where built, runs products of its own)
if [ -f "$builddir/plugins/aten-dnnl/.libs/aten-dnnl.so" ]; then
    printf 'plugins: [prim, aten-cpu, aten-dnnl]\n' >"$tmp/nofuser.yaml"
else
    printf 'plugins: [prim, aten-cpu]\n' >"$tmp/nofuser.yaml"
fi
. "$srcdir/t/fuser/tap.sh"

# groups FUNCTION [INPUTS...]: how many fusion groups `graph --optimized` shows
groups() {
    f=$1
    shift
    "$tscript" graph --optimized "$cases" -f "$f" "$@" >"$tmp/graph" 2>&1
    grep -c ' = prim::FusionGroup_[0-9]*(' "$tmp/graph"
}

"$tscript" run "$cases" >"$tmp/fused" 2>&1
check $? "the cases run with the fuser" "$tmp/fused"
"$tscript" --config "$tmp/nofuser.yaml" run "$cases" >"$tmp/plain" 2>&1
check $? "... and without it" "$tmp/plain"
"$tscript" --no-opt run "$cases" >"$tmp/noopt" 2>&1
check $? "... and with the optimizer off" "$tmp/noopt"
cmp -s "$tmp/fused" "$tmp/plain"
check $? "fused and unfused print the same, digit for digit" "$tmp/fused" "$tmp/plain"
cmp -s "$tmp/fused" "$tmp/noopt"
check $? "... as does the unoptimized run" "$tmp/noopt"
[ "$(groups main)" -ge 6 ]
check $? "main's float32 work is fused (factories make its types known)" "$tmp/graph"

cell="torch.randn(2,7) torch.randn(2,8) torch.randn(2,8) torch.randn(32,7) torch.randn(32,8) torch.randn(32) torch.randn(32)"
# shellcheck disable=SC2086
[ "$(groups cell $cell)" = 2 ]
check $? "an LSTM cell specialized to float32: two groups (the biases, the gates)" "$tmp/graph"
grep -q 'prim::FusionGroup_1(%[0-9]*, %cx)' "$tmp/graph" &&
    grep -q 'prim::ConstantChunk\[chunks=4, dim=1\]' "$tmp/graph" && ! grep -q 'aten::chunk' "$tmp/graph"
check $? "... the second takes the gates whole and chunks them itself, and the cell state" "$tmp/graph"
grep -q 'return (%[0-9]*, %[0-9]*)$' "$tmp/graph" && grep -q 'aten::tanh' "$tmp/graph"
check $? "... and returns both states from one group" "$tmp/graph"
[ "$(groups gates_kept 'torch.zeros(2,4)' 'torch.zeros(4)')" = 2 ] &&
    grep -q 'prim::ConstantChunk\[chunks=2, dim=1\]' "$tmp/graph" && ! grep -q 'BroadcastingChunk' "$tmp/graph"
check $? "a chunked tensor used after the chunk too: its operators a group of their own" "$tmp/graph"
"$tscript" run "$cases" -f pre_chunk_bad 'torch.zeros(2,4)' 'torch.zeros(4)' >"$tmp/bad.out" 2>"$tmp/bad.err"
[ $? = 1 ] && grep -q 'Expected 3 elements in a list but found 2' "$tmp/bad.err"
check $? "a broadcasting chunk of too few pieces fails as unpacking does" "$tmp/bad.err"
[ "$(groups cell)" = 0 ]
check $? "without example inputs the types are unknown: nothing fused" "$tmp/graph"
[ "$(groups shapes 'torch.zeros(2,3)' 'torch.zeros(3)' 'torch.zeros(2,1)')" = 1 ]
check $? "outputs of three shapes, one group" "$tmp/graph"
[ "$(groups scalars 'torch.zeros(3)' 0.5 2)" = 1 ]
check $? "number inputs (alpha too) join the group" "$tmp/graph"
[ "$(groups ints 'torch.zeros(3, dtype=torch.int64)')" = 0 ]
check $? "int64 tensors are not fused" "$tmp/graph"
[ "$(groups unary 'torch.zeros(3, dtype=torch.float64)')" = 0 ]
check $? "float64 tensors are not fused" "$tmp/graph"
TSCRIPT_JIT_DISABLE=1 "$tscript" graph --optimized "$cases" -f unary 'torch.zeros(3)' >"$tmp/graph" 2>&1
! grep -q 'FusionGroup' "$tmp/graph"
check $? "TSCRIPT_JIT_DISABLE=1: no fusion" "$tmp/graph"
"$tscript" --config "$tmp/nofuser.yaml" graph --optimized "$cases" -f unary 'torch.zeros(3)' >"$tmp/graph" 2>&1
! grep -q 'FusionGroup' "$tmp/graph"
check $? "a config without fuser-cpu: no fusion" "$tmp/graph"
[ "$(groups pieces 'torch.zeros(2,7)')" = 1 ] && grep -q 'prim::ConstantChunk\[chunks=3, dim=1\]' "$tmp/graph"
check $? "a chunk into pieces of different sizes is folded too" "$tmp/graph"
"$tscript" run "$cases" -f badchunk 'torch.zeros(2,3)' >"$tmp/bad.out" 2>"$tmp/bad.err"
[ $? = 1 ] && grep -q 'Expected 4 elements in a list but found 2' "$tmp/bad.err"
check $? "a folded chunk of too few pieces fails as unpacking does" "$tmp/bad.err"
"$tscript" --config "$tmp/nofuser.yaml" run "$cases" -f badchunk 'torch.zeros(2,3)' >"$tmp/bad.out" 2>"$tmp/bad2.err"
[ $? = 1 ] && [ "$(tail -1 "$tmp/bad.err")" = "$(tail -1 "$tmp/bad2.err")" ]
check $? "... with the unfused run's message" "$tmp/bad.err" "$tmp/bad2.err"
"$tscript" ops >"$tmp/ops" 2>&1
grep -q 'fuser-cpu.*prim::FusionGroup(\.\.\.) -> \.\.\.' "$tmp/ops"
check $? "tscript ops lists prim::FusionGroup, declared by fuser-cpu" "$tmp/ops"

done_testing
