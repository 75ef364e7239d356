#!/bin/sh
# capture.sh — the executor's capture regions (cuda_graphs: true; core/ir/passes/
# capture_regions.c, core/sched/capture.c), on any machine: which runs of tensor operators
# become prim::CaptureRegion nodes — an unrolled LSTM loop body whole, its xs[t] moved ahead
# of it — and which nodes stay out (prints, reads of a value into the host, random draws,
# writes in place); none without the setting, none where the plan knows its tensors are on
# the cpu; and a program prints the same with regions as without (on the cpu a region runs
# its Subgraph plainly). t/gpu/capture.sh checks the captures themselves on a GPU.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tscript=$builddir/tscript
cases=$srcdir/t/capture/cases.py
tmp=$(mktemp -d "${TMPDIR:-/tmp}/capture.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
printf 'plugins: [prim, aten-cpu, fuser-cpu]\ncuda_graphs: true\n' >"$tmp/graphs.yaml"
printf 'plugins: [prim, aten-cpu, fuser-cpu]\ncuda_graphs: false\n' >"$tmp/plain.yaml"
. "$srcdir/t/fuser/tap.sh"

# graph FUNCTION [CONFIG]: the optimized graph in $tmp/graph, its top level in $tmp/top
graph() {
    "$tscript" --config "${2:-$tmp/graphs.yaml}" graph --optimized "$cases" -f "$1" \
        >"$tmp/graph" 2>&1
    sed '/^with /,$d' "$tmp/graph" >"$tmp/top"
}
regions() { grep -c ' = prim::CaptureRegion_[0-9]*(' "$tmp/top"; }

graph lstm
[ "$(regions)" = 2 ]
check $? "lstm: a region for the unrolled loop body and one for the remainder loop's" "$tmp/graph"
body=$(sed -n 's/.* = prim::CaptureRegion_0(\(.*\))$/\1/p' "$tmp/top")
[ "$(echo "$body" | tr ',' '\n' | wc -l)" = 14 ]
check $? "... the body's takes the weights, the state and the eight steps' inputs" "$tmp/top"
[ "$(sed -n '/^with prim::CaptureRegion_0/,/^with /p' "$tmp/graph" | grep -c 'aten::mm(')" = 16 ]
check $? "... and holds the eight steps' sixteen products" "$tmp/graph"
[ "$(sed -n '1,/CaptureRegion_0(/p' "$tmp/top" | sed -n '/prim::Loop/,$p' | grep -c 'aten::select(')" = 8 ]
check $? "... the xs[t] of each step moved ahead of it" "$tmp/top"
graph lstm "$tmp/plain.yaml"
[ "$(regions)" = 0 ]
check $? "no regions without cuda_graphs" "$tmp/graph"
TSCRIPT_OPT_LIMIT=capture_regions=0 "$tscript" --config "$tmp/graphs.yaml" graph --optimized \
    "$cases" -f lstm >"$tmp/graph" 2>&1
! grep -q 'prim::CaptureRegion' "$tmp/graph"
check $? "... nor with TSCRIPT_OPT_LIMIT=capture_regions=0" "$tmp/graph"
"$tscript" --config "$tmp/graphs.yaml" graph --optimized "$cases" -f lstm 'torch.randn(3,2,5)' \
    'torch.zeros(2,4)' 'torch.zeros(2,4)' 'torch.randn(16,5)' 'torch.randn(16,4)' \
    'torch.randn(16)' 'torch.randn(16)' >"$tmp/graph" 2>&1 && ! grep -q 'prim::CaptureRegion' "$tmp/graph"
check $? "none in a plan specialized to cpu tensors" "$tmp/graph"

graph from_list
[ "$(regions)" = 1 ] && grep -q ' = aten::__getitem__(%ts' "$tmp/top" && grep -q 'aten::add(%[0-9]*, %k' "$tmp/top"
check $? "a list's items and a number argument stay outside" "$tmp/graph"
graph printed
[ "$(regions)" = 2 ] && grep -q 'prim::Print' "$tmp/top"
check $? "a print ends a region" "$tmp/graph"
graph reads_back
[ "$(regions)" = 2 ] && grep -q 'aten::item' "$tmp/top"
check $? "a read into the host ends a region" "$tmp/graph"
graph random
grep -q 'aten::rand_like' "$tmp/top" && ! sed -n '/^with /,$p' "$tmp/graph" | grep -q rand_like
check $? "random draws stay outside" "$tmp/graph"
graph in_place
grep -q 'aten::add_' "$tmp/top" && ! sed -n '/^with /,$p' "$tmp/graph" | grep -q 'add_'
check $? "writes in place stay outside" "$tmp/graph"
graph counter
[ "$(regions)" = 2 ] && ! sed -n '/^with /,$p' "$tmp/graph" | grep -q '%i\b'
check $? "a loop counter is no region input: what it feeds moves ahead" "$tmp/graph"
graph module
[ "$(regions)" = 1 ] && [ "$(sed -n '/^with /,$p' "$tmp/graph" | grep -c 'aten::mm(')" = 2 ] &&
    [ "$(grep -c 'prim::GetAttr' "$tmp/top")" = 2 ]
check $? "a module's weights are read ahead of one region over its whole forward" "$tmp/graph"

"$tscript" --config "$tmp/graphs.yaml" run "$cases" >"$tmp/on" 2>&1
check $? "the cases run with regions" "$tmp/on"
"$tscript" --config "$tmp/plain.yaml" run "$cases" >"$tmp/off" 2>&1
check $? "... and without" "$tmp/off"
cmp -s "$tmp/on" "$tmp/off"
check $? "... printing the same" "$tmp/on" "$tmp/off"
"$tscript" --config "$tmp/graphs.yaml" --no-opt run "$cases" >"$tmp/noopt" 2>&1
cmp -s "$tmp/on" "$tmp/noopt"
check $? "... as with the optimizer off" "$tmp/noopt"

# an error inside a region reads as without regions: the failing operator's own traceback
cat >"$tmp/err.py" <<'PY'
import torch
from typing import List


def f(ts: List[torch.Tensor]) -> torch.Tensor:
    a = ts[0]
    b = ts[1]
    return (a.mm(b) + a).relu()


def main():
    a = torch.ones(2, 3)
    print(f([a, a]))
PY
"$tscript" --config "$tmp/graphs.yaml" graph --optimized "$tmp/err.py" -f f >"$tmp/graph" 2>&1
grep -q 'prim::CaptureRegion' "$tmp/graph"
check $? "the failing product is in a region" "$tmp/graph"
"$tscript" --config "$tmp/graphs.yaml" run "$tmp/err.py" >/dev/null 2>"$tmp/on"
[ $? = 1 ]
check $? "... which fails the run (exit 1)" "$tmp/on"
"$tscript" --config "$tmp/plain.yaml" run "$tmp/err.py" >/dev/null 2>"$tmp/off"
cmp -s "$tmp/on" "$tmp/off" && grep -q 'mat1 and mat2 shapes cannot be multiplied' "$tmp/on"
check $? "... with the message and traceback it has without regions" "$tmp/on" "$tmp/off"
done_testing
