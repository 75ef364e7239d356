#!/bin/sh
# constant_prop_run.sh — constant propagation seen from the command line.
# A fold that would raise is left for run time: with the optimizer on, 1 // 0 and [1][5]
# still raise where the program reaches them, with PyTorch's message and traceback, and
# not before (the program prints what comes first); t/passes/constant_prop_raise.py
# checks the graph. TSCRIPT_OPT_LIMIT bounds the folds one by one, and
# TSCRIPT_LOG_LEVEL=">constant_prop" logs each.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tscript=$builddir/tscript
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "1..10"
i=0
fails=0
nok() { echo "not ok $*"; fails=$((fails + 1)); }

# check PROGRAM WHAT MESSAGE SOURCE: runs PROGRAM, which prints 1 and then fails in WHAT
# with MESSAGE (a line of stderr), the traceback quoting SOURCE.
check() {
    "$tscript" run "$1" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    i=$((i + 1))
    [ "$rc" -ne 0 ] && echo "ok $i - $2 fails the run" || nok "$i - $2 fails the run"
    i=$((i + 1))
    grep -qx '1' "$tmp/out" && echo "ok $i - $2: what came before was printed" ||
        nok "$i - $2: what came before was printed"
    i=$((i + 1))
    if grep -qxF "$3" "$tmp/err" && grep -qF "$4" "$tmp/err"; then
        echo "ok $i - $2: PyTorch's message, at the operation"
    else
        nok "$i - $2: PyTorch's message, at the operation"
        sed 's/^/# /' "$tmp/err"
    fi
}

check "$srcdir/t/passes/constant_prop_raise.py" "1 // 0" "RuntimeError: division by 0" \
    "return x + (1 // 0)"

cat > "$tmp/index.py" <<'PY'
def g(x: int) -> int:
    if x > 0:
        return x
    return x + [1][5]


def main():
    print(g(1))
    print(g(0))
PY
check "$tmp/index.py" "[1][5]" "RuntimeError: list index out of range" "return x + [1][5]"

# (2 + 3) * 4: two folds, the second on the result of the first.
printf 'def f(x: int) -> int:\n    return x + (2 + 3) * 4\n' > "$tmp/lim.py"
graph() { "$tscript" graph --optimized "$tmp/lim.py" -f f; }
graph > "$tmp/all"
grep -q 'prim::Constant\[value=20\]' "$tmp/all" && ! grep -q 'aten::mul' "$tmp/all" &&
    echo "ok 7 - both folds made" || nok "7 - both folds made"
TSCRIPT_OPT_LIMIT="constant_prop=1" graph > "$tmp/one"
grep -q 'prim::Constant\[value=5\]' "$tmp/one" && grep -q 'aten::mul' "$tmp/one" &&
    ! grep -q 'aten::add(%[0-9]*, %[0-9]*)' "$tmp/one" &&
    echo "ok 8 - TSCRIPT_OPT_LIMIT=constant_prop=1: only 2 + 3 folds" ||
    nok "8 - TSCRIPT_OPT_LIMIT=constant_prop=1: only 2 + 3 folds"
TSCRIPT_OPT_LIMIT="constant_prop=0" graph > "$tmp/none"
grep -q 'aten::mul' "$tmp/none" && grep -q 'prim::Constant\[value=2\]' "$tmp/none" &&
    echo "ok 9 - TSCRIPT_OPT_LIMIT=constant_prop=0: nothing folds" ||
    nok "9 - TSCRIPT_OPT_LIMIT=constant_prop=0: nothing folds"
TSCRIPT_LOG_LEVEL=">constant_prop" graph 2> "$tmp/log" > /dev/null
[ "$(grep -c '^\[UPDATE constant_prop.c:[0-9]*\] folding aten::' "$tmp/log")" -eq 2 ] &&
    grep -q '^\[DUMP constant_prop.c:[0-9]*\] after constant_prop' "$tmp/log" &&
    echo "ok 10 - the log shows each fold and the graph after" ||
    { nok "10 - the log shows each fold and the graph after"; sed 's/^/# /' "$tmp/log"; }
[ $fails -eq 0 ]
