#!/bin/sh
# cli.sh — `tscript run`, `info`, `save` and `test` as a user sees them: output, results printed as
# print() prints them, arguments as TorchScript expressions with defaults and int-to-float,
# models saved by torch.jit.save with inputs from files and results written to files,
# exit status 2 for bad usage and 1 for compile and run-time errors (with PyTorch's message
# and traceback on stderr), and the TAP of `tscript test`.
. "$(dirname "$0")/cli_lib.sh"

check "run main prints and its result" 0 "hello 1.5 [1, 2]${nl}4" "" -- run "$data/prog.py"
check "an int argument passed for a float" 0 "6." "" -- run "$data/prog.py" -f scale 3
check "a default filled in, an expression argument" 0 "7.5" "" -- \
    run "$data/prog.py" -f scale 2.5 '1 + 2'
check "a list argument" 0 "6" "" -- run "$data/prog.py" -f total '[1, 2, 3]'
check "an argument built from the file's class" 0 "7" "" -- \
    run "$data/prog.py" -f norm1 'Point(-3, 4)'
check "a None result prints nothing" 0 "" "" -- run "$data/prog.py" -f nothing 1
check "unknown function: usage error" 2 "" "no function 'nope'" -- \
    run "$data/prog.py" -f nope
check "too few arguments: usage error" 2 "" "takes 1 to 2 arguments but 0 were given" -- \
    run "$data/prog.py" -f scale
check "too many arguments: usage error" 2 "" "takes 1 argument but 2 were given" -- \
    run "$data/prog.py" -f boom 1 2
check "an argument of the wrong type: usage error" 2 "" "expected a value of type 'int'" -- \
    run "$data/prog.py" -f boom '"x"'
check "an argument that is not an expression: usage error" 2 "" "not a TorchScript expression" \
    -- run "$data/prog.py" -f boom 'def'
check "an argument that does not compile" 1 "" "undefined value nope" -- \
    run "$data/prog.py" -f boom 'nope'
check "a run-time error: traceback and exit 1" 1 "" "builtins.ValueError: too big" -- \
    run "$data/prog.py" -f boom 5
check "the traceback names the function" 1 "" ", in boom" -- run "$data/prog.py" -f boom 5
check "a compile error: exit 1" 1 "" "undefined value undefined_name" -- \
    run "$data/broken.py"
check "a missing file: exit 1" 1 "" "nope.py" -- run "$data/nope.py"
check "run without a file: usage error" 2 "" "needs a FILE.py" -- run

# A model archive (written by t/hostile.py with the standard library: its forward is x + w,
# w = [1.5, -2.0]); inputs as expressions and files, results printed or written to files.
models=$scratch/models
if command -v python3 >/dev/null 2>&1 && python3 "$srcdir/t/hostile.py" "$models"; then
    m=$models/ok.pt
    check "a model's forward on an expression input" 0 " 2.5000${nl}-1.0000${nl}[ CPUFloatType{2} ]" \
        "" -- run "$m" 'torch.ones(2)'
    check "a model's result written as .npy" 0 "" "" -- run "$m" -o "$models/a.npy" 'torch.ones(2)'
    check "an .npy input read back" 0 " 4${nl}-3${nl}[ CPUFloatType{2} ]" "" -- \
        run "$m" "@$models/a.npy"
    check "a result written as a torch.save file" 0 "" "" -- \
        run "$m" --output "$models/b.pt" "@$models/a.npy"
    check "a torch.save input read back" 0 " 5.5000${nl}-5.0000${nl}[ CPUFloatType{2} ]" "" -- \
        run "$m" "@$models/b.pt"
    check "an input of the wrong type: usage error" 2 "" "expected a value of type 'Tensor'" -- \
        run "$m" 3
    check "a missing input file: exit 1" 1 "" "nope.npy" -- run "$m" "@$models/nope.npy"
    check "an input file that is neither format: exit 1" 1 "" "neither a torch.save file" -- \
        run "$m" "@$data/prog.py"
    check "a method the model lacks: usage error" 2 "" "has no method 'nope'" -- run "$m" -f nope
    check "a missing model: exit 1" 1 "" "nope.pt" -- run "$models/nope.pt"
    check "a .npy output of a non-tensor: exit 1" 1 "" "holds a tensor" -- \
        run "$data/prog.py" -f total -o "$models/c.npy" '[1, 2, 3]'
    "$tscript" info "$m" >"$out" 2>"$err"
    for want in "module __torch__.m.M" "  forward(Tensor x) -> Tensor" "  w " "float32  [2]" \
                "operators: the loaded plugins declare every one the code calls"; do
        n=$((n + 1))
        if grep -qF -- "$want" "$out"; then
            echo "ok $n - info shows '$want'"
        else
            failed=$((failed + 1))
            echo "not ok $n - info shows '$want'"
            sed 's/^/# stdout: /' "$out"
        fi
    done
    check "a model saved by PyTorch runs" 0 " 2${nl} 4${nl}[ CPUFloatType{2} ]" "" -- \
        run "$data/raising.pt" 'torch.tensor([1.0, 2.0])'
    for phrase in "Traceback of TorchScript, serialized code (most recent call last):" \
                  'File "code/__torch__.py", line 12, in check' \
                  "Traceback of TorchScript, original code (most recent call last):" \
                  'make_raising.py", line 16, in check' \
                  'raise ValueError("negative input")' "builtins.ValueError: negative input"; do
        check "a model's traceback: $phrase" 1 "" "$phrase" -- \
            run "$data/raising.pt" 'torch.tensor([1.0, -1.0])'
    done
    check "save a function as an archive" 0 "" "" -- \
        save "$data/prog.py" -f total -o "$models/total.pt"
    check "the saved function runs as the archive's forward" 0 "6" "" -- \
        run "$models/total.pt" '[1, 2, 3]'
    check "save a model loaded from an archive" 0 "" "" -- save "$m" -o "$models/again.pt"
    check "the saved model runs as the original" 0 " 2.5000${nl}-1.0000${nl}[ CPUFloatType{2} ]" \
        "" -- run "$models/again.pt" 'torch.ones(2)'
    check "save without -o: usage error" 2 "" "needs -o OUT.pt" -- save "$m"
    check "save of a file that does not compile: exit 1, no file" 1 "" "undefined value" -- \
        save "$data/broken.py" -o "$models/broken.pt"
    n=$((n + 1))
    if [ -e "$models/broken.pt" ]; then
        failed=$((failed + 1)); echo "not ok $n - a failed save leaves no file"
    else
        echo "ok $n - a failed save leaves no file"
    fi
    check "info of a file that is not a model: exit 1" 1 "" "not a zip archive" -- \
        info "$data/prog.py"
    check "info needs one model: usage error" 2 "" "needs exactly one MODEL.pt" -- info
fi

tap="ok 1 - test_passes
not ok 2 - test_fails
# The following operation failed in the TorchScript interpreter."
n=$((n + 1))
"$tscript" test "$data/tests.py" >"$out" 2>"$err"
if [ "$(head -3 "$out")" = "$tap" ] && grep -q '^# .*AssertionError: xs\[0\] is not 2$' "$out" &&
    grep -q '^not ok 3 - test_returns_false$' "$out" &&
    grep -q '^# test_returns_false returned False$' "$out" &&
    grep -q '^not ok 4 - test_does_not_compile$' "$out" &&
    grep -q '^# undefined value undefined_name' "$out" && [ "$(tail -1 "$out")" = "1..4" ] &&
    grep -q '^printed to stderr$' "$err"; then
    echo "ok $n - test: one line per test_* function, errors as diagnostics, prints on stderr"
else
    failed=$((failed + 1))
    echo "not ok $n - test: one line per test_* function, errors as diagnostics"
    sed 's/^/# /' "$out"
fi
n=$((n + 1))
"$tscript" test "$data/tests.py" "$data/tests.py" >"$out" 2>"$err"
if grep -q '^ok 5 - .*tests.py::test_passes$' "$out" && [ "$(tail -1 "$out")" = "1..8" ]; then
    echo "ok $n - test: several files name their tests FILE::test"
else
    failed=$((failed + 1))
    echo "not ok $n - test: several files name their tests FILE::test"
    sed 's/^/# /' "$out"
fi
check "test without files: usage error" 2 "" "needs FILE.py" -- test
done_testing
