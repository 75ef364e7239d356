#!/bin/sh
# mutation.sh — the mutation suite: programs where a wrong alias analysis gives a wrong
# answer (CSE across a write, DCE of a write whose only reader is the caller, forks writing
# shared lists...). Each t/mutation/NAME.py runs with the optimizer on and must print what
# PyTorch 1.13 printed (NAME.out, made by t/mutation/make_expected.py), numbers compared
# with the conformance suite's tolerance (t/outcmp.py).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tscript=$builddir/tscript
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

programs=$(ls "$srcdir"/t/mutation/*.py | grep -v make_expected.py)
n=0
for py in $programs; do
    [ -f "${py%.py}.out" ] && n=$((n + 1))
done
echo "1..$n"
i=0
fails=0
for py in $programs; do
    out=${py%.py}.out
    [ -f "$out" ] || continue
    i=$((i + 1))
    name=$(basename "$py" .py)
    # a program that needs a test plugin has its runtime's config beside it
    config=${py%.py}.config.yaml
    if [ -f "$config" ]; then set -- --config "$config"; else set --; fi
    if (cd "$(dirname "$py")" &&
        TSCRIPT_PLUGIN_PATH=$builddir/t/plugins/.libs timeout 60 "$tscript" "$@" run "$py") \
        >"$tmp/got" 2>"$tmp/err" </dev/null &&
        python3 "$srcdir/t/outcmp.py" "$out" "$tmp/got" >"$tmp/why"; then
        echo "ok $i - $name"
    else
        echo "not ok $i - $name: the optimized program does not print what PyTorch printed"
        sed 's/^/# /' "$tmp/why" "$tmp/err" 2>/dev/null | head -10
        fails=$((fails + 1))
    fi
done
[ $fails -eq 0 ]
