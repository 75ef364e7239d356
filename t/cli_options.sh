#!/bin/sh
# cli_options.sh — the command line of every `tscript` command: --help (three ways), long and
# short options, "--" ending the options, "-" reading the program from standard input, bad
# options, missing files and unknown commands (exit 2 or 1, one message format
# "tscript: WHAT: WHY"), and write errors on a full disk (/dev/full) ending with exit 1.
. "$(dirname "$0")/cli_lib.sh"

commands="run test graph ops info save"

# ---- help ---------------------------------------------------------------------------------
"$tscript" --help >"$out" 2>"$err"
rc=$?
missing=
for c in $commands help version; do
    grep -q "^  $c " "$out" || missing="$missing $c"
done
if [ $rc -eq 0 ] && [ -z "$missing" ]; then ok "--help lists every command"
else notok "--help lists every command (exit $rc, missing:$missing)"; fi
"$tscript" -h >"$scratch/h" 2>"$err"
if cmp -s "$out" "$scratch/h"; then ok "-h is --help"; else notok "-h is --help"; fi
"$tscript" help >"$scratch/h" 2>"$err"
if cmp -s "$out" "$scratch/h"; then ok "help is --help"; else notok "help is --help"; fi
check "no command: exit 2" 2 "" "tscript: COMMAND: missing, one of run test" --

for c in $commands; do
    "$tscript" $c --help >"$out" 2>"$err"
    rc=$?
    "$tscript" $c -h >"$scratch/h" 2>&1
    "$tscript" help $c >"$scratch/h2" 2>&1
    if [ $rc -eq 0 ] && head -1 "$out" | grep -q "^usage: tscript \[--config FILE\] $c " &&
        grep -q -- "--help" "$out" && cmp -s "$out" "$scratch/h" && cmp -s "$out" "$scratch/h2"; then
        ok "$c --help, $c -h and help $c print its usage and options"
    else
        notok "$c --help, $c -h and help $c print its usage and options (exit $rc)"
    fi
    # every option a command's help names is one it accepts
    for opt in $(sed -n 's/^  \(-[a-z]\), \(--[a-z]*\).*/\1 \2/p' "$out"); do
        "$tscript" $c $opt 2>&1 | grep -q "unknown option" &&
            { notok "$c: the option $opt of its help is unknown to it"; continue 2; }
    done
    ok "$c: every option of its help is accepted"
    check "$c: an unknown long option: exit 2" 2 "" "tscript: $c: option '--frob': unknown option" \
        -- $c --frob x
    check "$c: an unknown short option: exit 2" 2 "" "tscript: $c: option '-Z': unknown option" \
        -- $c -Z x
done
check "help of an unknown command: exit 2" 2 "" "tscript: help: unknown command 'frob'" -- help frob
check "help takes one command" 2 "" "help: takes one COMMAND" -- help run test

# ---- global options, commands --------------------------------------------------------------
check "an unknown command: exit 2" 2 "" "tscript: frob: unknown command" -- frob
check "an unknown global option: exit 2" 2 "" "tscript: --frob: unknown option" -- --frob run
check "an unknown short global option: exit 2" 2 "" "tscript: -Z: unknown option" -- -Z run
check "--config without a FILE: exit 2" 2 "" "tscript: --config: needs a value" -- --config
version=$("$tscript" version)
check "--version" 0 "$version" "" -- --version
check "-V" 0 "$version" "" -- -V
case $version in "tscript "*"(plugin ABI v"*")") ok "version: name, version, ABI" ;;
*) notok "version: name, version, ABI ($version)" ;; esac
check "version takes no arguments" 2 "" "version: takes no arguments" -- version 1
# the vendor config finds acme.so beside itself in an in-tree build; out of tree, in ours
TSCRIPT_PLUGIN_PATH=$builddir/examples/plugins/vendor/.libs${TSCRIPT_PLUGIN_PATH:+:$TSCRIPT_PLUGIN_PATH}
export TSCRIPT_PLUGIN_PATH
check "--config FILE" 0 "3" "" -- --config "$srcdir/examples/plugins/vendor/config.yaml" \
    run "$data/prog.py" -f total '[1, 2]'
check "--config=FILE" 0 "3" "" -- --config="$srcdir/examples/plugins/vendor/config.yaml" \
    run "$data/prog.py" -f total '[1, 2]'
check "-c FILE" 0 "3" "" -- -c "$srcdir/examples/plugins/vendor/config.yaml" \
    run "$data/prog.py" -f total '[1, 2]'
check "a missing --config: exit 1" 1 "" "tscript: $scratch/nope.yaml: " -- \
    --config "$scratch/nope.yaml" ops

# ---- options of the commands ------------------------------------------------------------------
check "run --function NAME" 0 "6" "" -- run --function total "$data/prog.py" '[1, 2, 3]'
check "run --function=NAME" 0 "6" "" -- run --function=total "$data/prog.py" '[1, 2, 3]'
check "run: options after FILE" 0 "6" "" -- run "$data/prog.py" -f total '[1, 2, 3]'
check "run: -- ends the options, a negative INPUT after it" 0 "-6." "" -- \
    run -f scale "$data/prog.py" -- -3
check "run: a negative INPUT before -- is an unknown option" 2 "" "option '-3': unknown option" -- \
    run -f scale "$data/prog.py" -3
check "run -f without a NAME: exit 2" 2 "" "tscript: run: option '-f': needs a value" -- \
    run "$data/prog.py" -f
check "run --output without a FILE: exit 2" 2 "" "tscript: run: option '--output': needs a value" \
    -- run "$data/prog.py" --output
check "run -o OUT" 0 "" "" -- run -o "$scratch/r.pt" "$data/prog.py" -f total '[4, 5]'
check "run: the -o file reads back" 0 "18." "" -- run "$data/prog.py" -f scale "@$scratch/r.pt"
"$tscript" graph -f total "$data/prog.py" >"$out" 2>"$err"
if [ "$(head -1 "$out")" = "graph(%xs : int[]):" ]; then ok "graph -f NAME prints its graph"
else notok "graph -f NAME prints its graph"; fi
check "graph --function NAME" 0 "$(cat "$out")" "" -- graph --function total "$data/prog.py"
check "graph --optimized with the optimizer off is the frontend's graph" 0 "$(cat "$out")" "" \
    -- --no-opt graph --optimized -f total "$data/prog.py"
"$tscript" graph -O -f total "$data/prog.py" >"$out" 2>"$err"
if [ "$(head -1 "$out")" = "graph(%xs : int[]):" ]; then ok "graph -O -f NAME prints the optimized graph"
else notok "graph -O -f NAME prints the optimized graph"; fi
check "--no-opt runs the program the same" 0 "18." "" -- --no-opt run "$data/prog.py" -f scale "@$scratch/r.pt"
TSCRIPT_JIT_DISABLE=1 "$tscript" run "$data/prog.py" -f scale "@$scratch/r.pt" >"$out" 2>"$err"
if [ $? -eq 0 ] && grep -q "18\." "$out"; then ok "TSCRIPT_JIT_DISABLE=1 runs the program the same"
else notok "TSCRIPT_JIT_DISABLE=1 runs the program the same"; fi
TSCRIPT_JIT_DISABLE=yes "$tscript" run "$data/prog.py" -f scale "@$scratch/r.pt" >"$out" 2>"$err"
if [ $? -eq 1 ] && grep -q "TSCRIPT_JIT_DISABLE: expected 0 or 1, got 'yes'" "$err"; then
    ok "a TSCRIPT_JIT_DISABLE other than 0 or 1 is an error that says so"
else notok "a TSCRIPT_JIT_DISABLE other than 0 or 1 is an error that says so"; cat "$err"; fi
check "graph without a FILE: exit 2" 2 "" "tscript: graph: needs a FILE.py" -- graph
check "graph with an INPUT but not --optimized: exit 2" 2 "" "they need --optimized" -- \
    graph "$data/prog.py" "$data/prog.py"
check "graph of a function the file lacks: exit 1" 1 "" "tscript: $data/prog.py: " -- \
    graph -f nope "$data/prog.py"
check "graph of a file that does not compile: exit 1" 1 "" "undefined value undefined_name" -- \
    graph "$data/broken.py"
"$tscript" ops 'aten::add*' >"$out" 2>"$err"
if [ $? -eq 0 ] && grep -q 'aten::add.Tensor(Tensor self, Tensor other' "$out"; then
    ok "ops PATTERN"; else notok "ops PATTERN"; fi
"$tscript" ops 'tscript::format_tensor' >"$out" 2>"$err"
if [ $? -eq 0 ] && grep -q '^prim  *any,cpu(aten-cpu)  *tscript::format_tensor(Tensor self)' "$out"; then
    ok "ops names the plugin whose kernel runs when it is not the declaring one"
else notok "ops names the plugin whose kernel runs when it is not the declaring one"; fi
check "ops matching nothing: exit 1" 1 "" "tscript: ops: no operator matches 'nope::*'" -- \
    ops 'nope::*'
check "ops takes one PATTERN" 2 "" "tscript: ops: takes at most one PATTERN" -- ops a b
check "save without FILE: exit 2" 2 "" "tscript: save: needs a FILE.py" -- save -o "$scratch/x.pt"
check "save of two files: exit 2" 2 "" "takes one FILE" -- \
    save -o "$scratch/x.pt" "$data/prog.py" "$data/prog.py"
check "save --output= --function=" 0 "" "" -- \
    save --output="$scratch/total.pt" --function=total "$data/prog.py"
check "the saved function runs" 0 "6" "" -- run "$scratch/total.pt" '[1, 2, 3]'
check "save -f of a model: exit 2" 2 "" "-f names a function of a FILE.py" -- \
    save -f x -o "$scratch/y.pt" "$scratch/total.pt"
check "save -f of a function the file lacks: exit 2" 2 "" "no function 'nope'" -- \
    save -f nope -o "$scratch/y.pt" "$data/prog.py"
check "info of two models: exit 2" 2 "" "tscript: info: needs exactly one MODEL.pt" -- \
    info "$scratch/total.pt" "$scratch/total.pt"

# ---- missing files -------------------------------------------------------------------------
for c in run graph save info; do
    extra=; [ $c = save ] && extra="-o $scratch/never.pt"
    phrase="tscript: $scratch/nope.py: No such file or directory"
    [ $c = info ] && phrase="$scratch/nope.py"
    check "$c of a missing file: exit 1" 1 "" "$phrase" -- $c $extra "$scratch/nope.py"
done
[ -e "$scratch/never.pt" ] && notok "a failed save leaves no file" || ok "a failed save leaves no file"
"$tscript" test "$scratch/nope.py" >"$out" 2>"$err"
if [ $? -eq 1 ] && grep -q "^not ok 1 - $scratch/nope.py\$" "$out" &&
    grep -q "^# $scratch/nope.py: No such file or directory" "$out"; then
    ok "test of a missing file: a failed test with the reason"
else notok "test of a missing file: a failed test with the reason"; fi

# ---- standard input -------------------------------------------------------------------------
check "run - reads the program from stdin" 0 "hello 1.5 [1, 2]${nl}4" "" -- run - <"$data/prog.py"
check "run -: options and inputs" 0 "6" "" -- run -f total - '[1, 2, 3]' <"$data/prog.py"
check "run -: a compile error names <stdin>" 1 "" 'tscript: <stdin>: ' -- run - <"$data/broken.py"
check "run -: an empty stdin has no main: exit 2" 2 "" "no function 'main'" -- run - </dev/null
check "run - reads a model from stdin" 0 "6" "" -- run - '[1, 2, 3]' <"$scratch/total.pt"
check "graph - reads the program from stdin" 0 "$("$tscript" graph -f total "$data/prog.py")" "" \
    -- graph -f total - <"$data/prog.py"
check "info - reads the model from stdin" 0 "$("$tscript" info "$scratch/total.pt" |
    sed "1s|^$scratch/total.pt:|<stdin>:|")" "" -- info - <"$scratch/total.pt"
check "info - of a file that is not a model: exit 1" 1 "" "tscript: <stdin>: " -- \
    info - <"$data/prog.py"
check "save - from stdin" 0 "" "" -- save -f total -o "$scratch/stdin.pt" - <"$data/prog.py"
check "the archive saved from stdin runs" 0 "6" "" -- run "$scratch/stdin.pt" '[1, 2, 3]'
printf 'def test_one():\n    assert 1 + 1 == 2\n' >"$scratch/one.py"
check "test - reads the tests from stdin" 0 "ok 1 - test_one${nl}1..1" "" -- test - <"$scratch/one.py"
check "test - twice: exit 2" 2 "" "tscript: test: '-' (standard input) given twice" -- test - -
check "run - with stdin closed: exit 1" 1 "" "tscript: <stdin>: " -- run - <&-

# ---- write errors -----------------------------------------------------------------------------
if [ -w /dev/full ]; then
    full() { # full WHAT ARGS...: tscript ARGS with stdout on /dev/full
        what=$1; shift
        "$tscript" "$@" >/dev/full 2>"$err"
        rc=$?
        : >"$out"
        if [ $rc -eq 1 ] && grep -q '^tscript: standard output: cannot write: No space left on device$' "$err"
        then ok "$what"; else notok "$what (exit $rc)"; fi
    }
    full "run: a result to a full disk: exit 1" run "$data/prog.py"
    full "run: a result alone to a full disk: exit 1" run "$data/prog.py" -f scale 2
    full "ops to a full disk: exit 1" ops
    full "graph to a full disk: exit 1" graph "$data/prog.py"
    full "info to a full disk: exit 1" info "$scratch/total.pt"
    full "test to a full disk: exit 1" test "$srcdir/examples/tests/arith.py"
    full "--help to a full disk: exit 1" --help
    full "help run to a full disk: exit 1" help run
    full "run --help to a full disk: exit 1" run --help
    full "version to a full disk: exit 1" version
    check "run -o /dev/full: exit 1" 1 "" "tscript: /dev/full: " -- \
        run -o /dev/full "$data/prog.py" -f total '[1]'
    printf 'import torch\ndef main():\n    return torch.ones(2)\n' >"$scratch/ones.py"
    ln -s /dev/full "$scratch/full.npy"
    check "run -o a .npy on a full disk: exit 1" 1 "" "No space left on device" -- \
        run -o "$scratch/full.npy" "$scratch/ones.py"
    check "save -o /dev/full: exit 1" 1 "" "tscript: /dev/full: " -- \
        save -o /dev/full "$data/prog.py" -f total
    if [ -c /dev/full ]; then ok "/dev/full is still there"; else notok "/dev/full is still there"; fi
else
    n=$((n + 1)); echo "ok $n # SKIP no writable /dev/full"
fi
done_testing
