#!/bin/sh
# compile_cases.sh — the frontend against the conformance suite, through `tscript graph`:
# a compile-error case (compile_errors.txt) must exit 1 with its .err phrase on stderr;
# every other function case must compile (exit 0).
#
# As with t/conformance.pass, t/compile.pass lists the cases known to meet that: a listed
# case that fails is a failure; an unlisted one is TODO until it passes, and is then reported
# so that it goes onto the list (which only grows). Module cases (with a .pt archive) are
# loaded from the archive, not compiled from source, and are not counted here. Skipped when
# the suite is not beside the source tree (as in `make distcheck`).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
suite=$srcdir/../shared/conformance
tscript=$builddir/tscript
list=$srcdir/t/compile.pass
if [ ! -d "$suite/cases" ]; then
    echo "1..0 # SKIP no conformance suite at $suite"
    exit 0
fi
errs=$suite/compile_errors.txt
tmp=${TMPDIR:-/tmp}/compile_cases.$$
trap 'rm -f "$tmp"' EXIT
listed() { sed 's/#.*//' "$list" 2>/dev/null | grep -qx "$1"; }
n=0 pass=0 todo=0 failed=0
for py in "$suite"/cases/*/*.py; do
    base=${py%.py}
    [ -f "$base.pt" ] && continue
    grep -q '^def main(' "$py" || continue
    name=$(basename "$(dirname "$py")")/$(basename "$base")
    n=$((n + 1))
    "$tscript" graph "$py" >/dev/null 2>"$tmp"
    rc=$?
    if grep -qx "$name" "$errs"; then
        phrase=$(cat "$base.err")
        what="fails to compile with '$phrase'"
        [ $rc -eq 1 ] && grep -qF -- "$phrase" "$tmp"
    else
        what="compiles"
        [ $rc -eq 0 ]
    fi
    if [ $? -eq 0 ]; then
        pass=$((pass + 1))
        if listed "$name"; then
            echo "ok $n - $name $what"
        else
            echo "ok $n - $name $what  # passes now: add it to t/compile.pass"
        fi
    elif listed "$name"; then
        failed=$((failed + 1))
        echo "not ok $n - $name $what (exit $rc)"
        sed 's/^/# /' "$tmp" | head -8
    else
        todo=$((todo + 1))
        echo "not ok $n - $name $what # TODO $(grep -m1 . "$tmp")"
    fi
done
echo "1..$n"
echo "# $pass passed, $failed failed, $todo not yet"
[ $failed -eq 0 ]
