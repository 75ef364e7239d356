#!/bin/sh
# ir_pass.sh — graph passes a plugin registers (tscript/plugin.h's ts_register_pass) on the
# public IR (tscript/ir.h), through the passdemo test plugin (t/plugins/passdemo): `tscript
# graph` prints the graph its passes leave (relu(add) fused into passdemo::add_relu at top
# level, with alpha, in float64 and in a loop body; `n * 1 + 0` folded; an add used twice
# and a float identity left alone), the program prints the same numbers as without the
# plugin (and as PyTorch, when python3 has torch); and the failures: a pass that fails or
# leaves an invalid graph fails the compile naming the pass, a second pass of one name
# fails the plugin's load.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tscript=$builddir/tscript
plugin=$builddir/t/plugins/passdemo/.libs/passdemo.so
prog=$srcdir/t/data/ir_pass/prog.py
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ir_pass.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
printf 'plugins: [prim, aten-cpu, %s]\n' "$plugin" >"$tmp/passdemo.yaml"
n=0
failed=0

result() {  # result OK WHAT
    n=$((n + 1))
    if [ "$1" = 0 ]; then
        echo "ok $n - $2"
    else
        failed=$((failed + 1))
        echo "not ok $n - $2"
        sed 's/^/# stdout: /' "$tmp/out" | head -40
        sed 's/^/# stderr: /' "$tmp/err" | head -10
    fi
}

run() {  # run WANT_STATUS ARGS...: tscript's output in $tmp/out and $tmp/err
    want=$1
    shift
    "$tscript" "$@" >"$tmp/out" 2>"$tmp/err"
    [ $? -eq "$want" ]
}

count() { grep -c -- "$1" "$tmp/out"; }   # count PATTERN: lines of $tmp/out matching

# The numbers of two outputs, equal within 1e-4 (and as many).
same_numbers() {  # same_numbers FILE1 FILE2
    awk 'NR == FNR { for (i = 1; i <= NF; i++) if ($i ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/) a[++na] = $i; next }
         { for (i = 1; i <= NF; i++) if ($i ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/) b[++nb] = $i }
         END { if (na != nb || na < 40) exit 1
               for (i = 1; i <= na; i++) { d = a[i] - b[i]; if (d < -1e-4 || d > 1e-4) exit 1 } }' "$1" "$2"
}

run 0 graph "$prog" && [ "$(count 'aten::relu(')" -eq 5 ] && [ "$(count passdemo)" -eq 0 ]
result $? "without the plugin: five aten::relu, nothing fused"

run 0 --config "$tmp/passdemo.yaml" graph "$prog" && cp "$tmp/out" "$tmp/graph"
result $? "with the plugin, the program compiles"
cp "$tmp/graph" "$tmp/out"
[ "$(count '= passdemo::add_relu(')" -eq 4 ] && [ "$(count 'aten::relu(')" -eq 1 ] &&
    [ "$(count '= aten::add(')" -eq 1 ]
result $? "relu(add) fused four times; the add used twice is left alone"
grep -q '^  %[0-9]* : Tensor = passdemo::add_relu(%x, %y, %[0-9]*)$' "$tmp/out" &&
    grep -q '^      %[0-9]* : Tensor = passdemo::add_relu(%s.5, %y, %[0-9]*)$' "$tmp/out"
result $? "the fused node takes the add's operands, also inside the loop body"
grep -q 'prim::Loop(%n, ' "$tmp/out" && [ "$(count '= aten::mul(%n, ')" -eq 1 ]
result $? "n * 1 + 0 folded to n (the loop's trip count); n * 1.0 left alone"
doubles=$(sed -n 's/^ *%\([0-9]*\) : Tensor = aten::to(.*/%\1/p' "$tmp/out" | paste -sd, - | sed 's/,/, /')
grep -q "= passdemo::add_relu($doubles, %[0-9]*)\$" "$tmp/out"
result $? "the float64 pair ($doubles) is fused too"

run 0 run "$prog" 3 && cp "$tmp/out" "$tmp/plain"
result $? "the program runs without the plugin"
run 0 --config "$tmp/passdemo.yaml" run "$prog" 3 && same_numbers "$tmp/plain" "$tmp/out"
result $? "with the plugin it prints the same numbers"

if /usr/bin/python3 -c 'import torch' 2>/dev/null; then
    (cd "$srcdir/t/data/ir_pass" &&
     /usr/bin/python3 -c 'import torch, prog; torch.jit.script(prog.main)(3)') >"$tmp/torch" 2>"$tmp/err"
    cp "$tmp/torch" "$tmp/out"
    same_numbers "$tmp/torch" "$tmp/plain"
    result $? "and the same as PyTorch's"
else
    n=$((n + 1))
    echo "ok $n - and the same as PyTorch's # SKIP python3 has no torch"
fi

PASSDEMO_MODE=fail run 1 --config "$tmp/passdemo.yaml" graph "$prog" &&
    grep -q "graph pass 'passdemo.fail' of plugin 'passdemo' failed on __torch__.main: the demo pass fails on purpose" "$tmp/err"
result $? "a pass that fails fails the compile, naming the pass"
PASSDEMO_MODE=fail run 1 --config "$tmp/passdemo.yaml" run "$prog" 3 &&
    grep -q "graph pass 'passdemo.fail'" "$tmp/err" && [ ! -s "$tmp/out" ]
result $? "and the program does not run"
PASSDEMO_MODE=break run 1 --config "$tmp/passdemo.yaml" graph "$prog" &&
    grep -q "graph pass 'passdemo.break' of plugin 'passdemo' left an invalid graph on __torch__.main: " "$tmp/err"
result $? "a pass that leaves an invalid graph is caught by the verifier"
PASSDEMO_MODE=dup run 1 --config "$tmp/passdemo.yaml" graph "$prog" &&
    grep -q "plugin 'passdemo' registers a second graph pass 'passdemo.int_identity' (plugin 'passdemo' registered the first)" "$tmp/err"
result $? "a second pass of one name fails the plugin's load"

echo "1..$n"
[ "$failed" -eq 0 ]
