#!/bin/sh
# graph_spec.sh — `tscript graph --optimized FILE.py [-f NAME] INPUT...`: the plan the
# executor runs for a call with those INPUTs (core/sched/spec.c), its inputs' types the
# arguments' dtypes, ranks, devices and requires_grad, its other types propagated
# (shape_prop); INPUTs are read as `tscript run` reads them (an expression, @PATH), and
# their errors are graph's usage errors.
. "$(dirname "$0")/cli_lib.sh"
prog=$srcdir/t/data/spec/prog.py

# has WHAT PATTERN... -- ARGS: tscript graph ARGS exits 0 and prints every PATTERN (fixed)
has() {
    what=$1
    shift
    pats=
    while [ "$1" != "--" ]; do pats="$pats$1$nl"; shift; done
    shift
    "$tscript" graph "$@" >"$out" 2>"$err"
    rc=$?
    missing=$(printf '%s' "$pats" | while IFS= read -r p; do
        [ -n "$p" ] && ! grep -qF -- "$p" "$out" && echo "$p"; done)
    if [ $rc -eq 0 ] && [ -z "$missing" ]; then ok "$what"; else notok "$what ($missing)"; fi
}

has "a Long matrix: the input is Long(*, *), the sum over dim 0 Float(*)" \
    "graph(%x : Long(*, *, requires_grad=0, device=cpu)," \
    "Float(*, *, requires_grad=0, device=cpu) = aten::to(%x" \
    "Float(*, requires_grad=0, device=cpu) = aten::sum(" \
    -- --optimized -f f "$prog" 'torch.ones(2, 3, dtype=torch.int64)' 2
has "a Double vector: the input is Double(*), the result Float(3)" \
    "graph(%x : Double(*, requires_grad=0, device=cpu)," \
    "Float(3, requires_grad=0, device=cpu) = aten::add(" \
    -- --optimized -f f "$prog" 'torch.ones(3, dtype=torch.float64)' 2
has "a tensor read from a file (@PATH) is keyed like an expression's" \
    "graph(%x : Float(*, *, requires_grad=0, device=cpu)," \
    -- --optimized -f f "$prog" "@$srcdir/t/data/spec/matrix.npy" 1
has "without INPUTs: the generic plan, the input unrefined" \
    "graph(%x : Tensor," "FloatTensor = aten::to(%x" \
    -- --optimized -f f "$prog"
has "a function without tensor parameters: its one plan" \
    "graph(%n : int):" \
    -- --optimized -f g "$prog" 5
"$tscript" --no-opt graph --optimized -f f "$prog" 'torch.ones(2)' 2 >"$out" 2>"$err"
if [ $? -eq 0 ] && grep -qF "graph(%x : Tensor," "$out" && ! grep -q "Float(" "$out"; then
    ok "--no-opt: the graph as compiled, nothing specialized"
else
    notok "--no-opt: the graph as compiled, nothing specialized"
fi

check "INPUTs without --optimized are a usage error" 2 "" \
    "INPUTs choose a specialized plan: they need --optimized" -- graph -f f "$prog" 1 2
check "too many INPUTs: graph's usage error" 2 "" "f() takes 2 arguments but 3 were given" \
    -- graph --optimized -f f "$prog" 'torch.ones(2)' 2 3
check "an INPUT of the wrong type: graph's usage error" 2 "" \
    "f(): expected a value of type 'Tensor' for argument 'x' but argument 1 ('[1]') is of type 'List[int]'" \
    -- graph --optimized -f f "$prog" '[1]' 2
check "an INPUT that is not an expression" 2 "" "argument 1 is not a TorchScript expression" \
    -- graph --optimized -f f "$prog" '1)' 2
check "an INPUT that raises" 1 "" "argument 1" \
    -- graph --optimized -f f "$prog" 'torch.ones(2).view(3)' 2
check "a function the file lacks" 2 "" "no function 'nope'" \
    -- graph --optimized -f nope "$prog" 1

done_testing
