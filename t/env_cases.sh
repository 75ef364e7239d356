#!/bin/sh
# env_cases.sh — t/env_cases.py under tscript (t/cases.sh says how), then aten::warn: each
# warn node prints "UserWarning: MESSAGE" to stderr the first time it runs, as PyTorch's
# interpreter warns once per node (a warn in a loop of 3 prints once).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
out=$(sh "$srcdir/t/cases.sh" "$srcdir/t/env_cases.py")
printf '%s\n' "$out" | grep -v '^1\.\.'
n=$(printf '%s\n' "$out" | grep -c '^\(not \)\{0,1\}ok ')
err=$("$builddir/tscript" run "$srcdir/t/env_cases.py" -f warn_in_loop 2>&1 >/dev/null)
status=$?
want=$(printf 'UserWarning: careful: 0\nUserWarning: second')
n=$((n + 1))
if [ $status -eq 0 ] && [ "$err" = "$want" ]; then
    echo "ok $n - aten::warn prints once per node, to stderr"
else
    echo "not ok $n - aten::warn prints once per node, to stderr"
    printf '%s\n' "$err" | sed 's/^/# /'
fi
echo "1..$n"
