#!/bin/sh
# cli_test.sh — `tscript test` as prove and PyTorch's test suites use it: a DIR's *.py files
# found recursively and sorted, tests declared with unittest's expectedFailure and skip
# (TAP "# expected failure", "not ok ... # unexpected success", "# SKIP reason") with the
# verdicts PyTorch gives them, and the README's prove line run as it is written there.
. "$(dirname "$0")/cli_lib.sh"

dir=$data/testdir
check "test DIR: *.py files under it, recursively, sorted by path" 0 \
"ok 1 - $dir/a.py::test_a
ok 2 - $dir/a/z.py::test_z
ok 3 - $dir/b.py::test_b
1..3" "" -- test "$dir"
check "test DIR/: the same names" 0 "$(cat "$out")" "" -- test "$dir/"
check "test FILE DIR: in the order given" 0 \
"ok 1 - $dir/b.py::test_b
ok 2 - $dir/a/z.py::test_z
1..2" "" -- test "$dir/b.py" "$dir/a"
mkdir "$scratch/empty"
check "test of a DIR without *.py files: no tests" 0 "1..0" "" -- test "$scratch/empty"
mkdir "$scratch/closed" && chmod 000 "$scratch/closed"
if [ -r "$scratch/closed" ]; then
    n=$((n + 1)); echo "ok $n # SKIP running as a user who reads any directory"
else
    check "test of an unreadable DIR: exit 1" 1 "" "tscript: $scratch/closed: cannot read the directory" \
        -- test "$scratch/closed"
fi

# ---- declared tests -----------------------------------------------------------------------
"$tscript" test "$data/declared.py" >"$out" 2>"$err"
rc=$?
want="ok 1 - test_plain
ok 2 - test_raises # expected failure
ok 3 - test_does_not_compile # expected failure
not ok 4 - test_passes_anyway # unexpected success
# declared @unittest.expectedFailure, and it passed
ok 5 - test_skipped # SKIP needs a GPU
ok 6 - test_bare_skip # SKIP bare
ok 7 - test_bare_xfail # expected failure
1..7"
if [ $rc -eq 1 ] && [ "$(cat "$out")" = "$want" ]; then
    ok "expectedFailure and skip: TAP directives, an unexpected success fails (exit 1)"
else
    notok "expectedFailure and skip: TAP directives, an unexpected success fails (exit $rc)"
fi

# tscript's verdicts, in unittest_verdicts.py's words
verdicts() {
    "$tscript" test "$1" 2>/dev/null | sed -n \
        -e 's/^ok [0-9]* - \([a-z0-9_]*\) # SKIP.*/\1 skip/p' \
        -e 's/^ok [0-9]* - \([a-z0-9_]*\) # expected failure$/\1 xfail/p' \
        -e 's/^not ok [0-9]* - \([a-z0-9_]*\) # unexpected success$/\1 xpass/p' \
        -e 's/^ok [0-9]* - \([a-z0-9_]*\)$/\1 pass/p' \
        -e 's/^not ok [0-9]* - \([a-z0-9_]*\)$/\1 fail/p'
}
if /usr/bin/python3 -c 'import torch' 2>/dev/null; then
    for f in "$data/declared.py" "$srcdir"/examples/tests/*.py; do
        (cd "$scratch" && /usr/bin/python3 "$srcdir/t/unittest_verdicts.py" "$f") >"$out" 2>"$err"
        verdicts "$f" >"$scratch/ours"
        if [ -s "$out" ] && cmp -s "$out" "$scratch/ours"; then
            ok "$(basename "$f"): the verdicts PyTorch gives"
        else
            diff "$out" "$scratch/ours" | sed 's/^/# /'
            notok "$(basename "$f"): the verdicts PyTorch gives"
        fi
    done
else
    n=$((n + 1)); echo "ok $n # SKIP python3-torch is not installed"
fi

# ---- prove --------------------------------------------------------------------------------
line=$(sed -n 's/^ *\$ \(prove --ext .py .*\)$/\1/p' "$srcdir/README")
case $line in
"prove --ext .py --exec 'tscript test' "*) ok "the README has the prove line" ;;
*) notok "the README has the prove line ('$line')" ;;
esac
if command -v prove >/dev/null 2>&1; then
    (cd "$srcdir" && PATH=$builddir:$PATH && eval "$line") >"$out" 2>"$err"
    rc=$?
    if [ $rc -eq 0 ] && grep -q '^All tests successful' "$out" &&
        grep -q "^Files=$(ls "$srcdir"/examples/tests/*.py | wc -l)," "$out"; then
        ok "the README's prove line runs every file and passes"
    else
        notok "the README's prove line runs every file and passes (exit $rc)"
    fi
    cp "$data/declared.py" "$scratch/empty/"
    (PATH=$builddir:$PATH && prove --ext .py --exec 'tscript test' "$scratch/empty/") >"$out" 2>"$err"
    rc=$?
    if [ $rc -ne 0 ] && grep -q 'Failed 1/7 subtests' "$out"; then
        ok "prove fails on an unexpected success"
    else
        notok "prove fails on an unexpected success (exit $rc)"
    fi
else
    n=$((n + 1)); echo "ok $n # SKIP prove is not installed"
fi
chmod 755 "$scratch/closed"
done_testing
