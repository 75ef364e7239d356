#!/bin/sh
# opt_diff.sh — the optimizer changes no program's behaviour: every conformance case (and
# every program of t/passes and t/mutation) runs with the optimizer on and off (tscript --no-opt), and
# the two runs must print the same stdout and stderr and exit with the same status.
# Skipped where the suite is not beside the source tree, as in `make distcheck`.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tscript=$builddir/tscript
suite=$srcdir/../shared/conformance/cases
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# Every program: a case CASE.py with CASE.pt beside it runs as the module's main.
{
    [ -d "$suite" ] && find "$suite" -name '*.py' | sort
    ls "$srcdir"/t/passes/*.py "$srcdir"/t/mutation/*.py 2>/dev/null | grep -v make_expected.py
} > "$tmp/list"
n=$(wc -l < "$tmp/list")
if [ "$n" -eq 0 ]; then
    echo "1..0 # SKIP no programs (the conformance suite is not at $suite)"
    exit 0
fi

# Runs one program both ways into $tmp/K.{on,off}: stdout, then stderr, then the status.
run_both() {
    k=$1 py=$2
    pt=${py%.py}.pt
    if [ -f "$pt" ]; then set -- run "$pt" -f main; else set -- run "$py"; fi
    dir=$(dirname "$py")
    (cd "$dir" && timeout 60 "$tscript" "$@" > "$tmp/$k.on" 2> "$tmp/$k.on.err"
     echo "status $?" >> "$tmp/$k.on.err"
     timeout 60 "$tscript" --no-opt "$@" > "$tmp/$k.off" 2> "$tmp/$k.off.err"
     echo "status $?" >> "$tmp/$k.off.err") < /dev/null
}
# two at a time
i=0
while read -r py; do
    i=$((i + 1))
    run_both "$i" "$py" &
    [ $((i % 2)) -eq 0 ] && wait
done < "$tmp/list"
wait

echo "1..$n"
i=0
fails=0
while read -r py; do
    i=$((i + 1))
    name=${py#"$suite"/}
    if cmp -s "$tmp/$i.on" "$tmp/$i.off" && cmp -s "$tmp/$i.on.err" "$tmp/$i.off.err"; then
        echo "ok $i - $name: the same with and without the optimizer"
    else
        echo "not ok $i - $name: the optimizer changed what it prints"
        diff "$tmp/$i.off" "$tmp/$i.on" | head -20 | sed 's/^/# /'
        diff "$tmp/$i.off.err" "$tmp/$i.on.err" | head -20 | sed 's/^/# /'
        fails=$((fails + 1))
    fi
done < "$tmp/list"
[ $fails -eq 0 ]
