#!/bin/sh
# constant_prop_errors.sh — a fold that would raise is left for run time: with the
# optimizer on, 1 // 0 and [1][5] (t/passes/constant_prop_raise.py) still raise where the
# program reaches them, with PyTorch's message and traceback, and not before (the program
# prints what comes first).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tscript=$builddir/tscript
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "1..6"

# f(1) reaches 1 // 0; g (below) reaches [1][5] through main.
"$tscript" run "$srcdir/t/passes/constant_prop_raise.py" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -ne 0 ] && echo "ok 1 - 1 // 0 fails the run" || echo "not ok 1 - 1 // 0 fails the run (status $rc)"
grep -q '^1$' "$tmp/out" && echo "ok 2 - what came before the error was printed" ||
    echo "not ok 2 - what came before the error was printed"
grep -q '^RuntimeError: division by 0$' "$tmp/err" && grep -q 'return x + (1 // 0)' "$tmp/err" &&
    echo "ok 3 - PyTorch's message, at the division" ||
    { echo "not ok 3 - PyTorch's message, at the division"; sed 's/^/# /' "$tmp/err"; }

cat > "$tmp/index.py" <<'PY'
def g(x: int) -> int:
    if x > 0:
        return x
    return x + [1][5]


def main():
    print(g(1))
    print(g(0))
PY
"$tscript" run "$tmp/index.py" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -ne 0 ] && echo "ok 4 - [1][5] fails the run" || echo "not ok 4 - [1][5] fails the run (status $rc)"
grep -q '^1$' "$tmp/out" && echo "ok 5 - what came before the error was printed" ||
    echo "not ok 5 - what came before the error was printed"
grep -q '^RuntimeError: list index out of range$' "$tmp/err" && grep -q 'return x + \[1\]\[5\]' "$tmp/err" &&
    echo "ok 6 - PyTorch's message, at the index" ||
    { echo "not ok 6 - PyTorch's message, at the index"; sed 's/^/# /' "$tmp/err"; }
