#!/bin/sh
# hostile.sh — hostile model archives (written by t/hostile.py, standard library only) through
# `tscript run`: each must be refused with a message saying what is wrong and exit 1, never
# crash (a signal), hang, or run; the one valid archive runs. See t/hostile.py for the cases.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
if ! command -v python3 >/dev/null 2>&1; then
    echo "1..0 # SKIP python3 is not installed"
    exit 0
fi
dir=${TMPDIR:-/tmp}/hostile.$$
trap 'rm -rf "$dir"' EXIT
python3 "$srcdir/t/hostile.py" "$dir" || { echo "1..0 # SKIP t/hostile.py failed"; exit 1; }
n=0 failed=0
tab=$(printf '\t')
while IFS="$tab" read -r name want phrase; do
    n=$((n + 1))
    timeout 60 "$builddir/tscript" run "$dir/$name.pt" 'torch.ones(2)' >"$dir/out" 2>"$dir/err"
    got=$?
    why=
    if [ "$got" -ne "$want" ]; then
        why="exit status $got, expected $want"
    elif [ -n "$phrase" ] && ! grep -qF -- "$phrase" "$dir/err"; then
        why="the message lacks '$phrase'"
    elif [ "$want" -ne 0 ] && [ ! -s "$dir/err" ]; then
        why="no message"
    fi
    if [ -z "$why" ]; then
        echo "ok $n - $name"
    else
        failed=$((failed + 1))
        echo "not ok $n - $name: $why"
        head -c 600 "$dir/err" | sed 's/^/# /'
    fi
done <"$dir/cases.txt"
echo "1..$n"
[ $failed -eq 0 ]
