#!/bin/sh
# cases.sh FILE.py — a case file of TorchScript functions under tscript, as TAP: its test_*
# functions through `tscript test`, then each err_* function through `tscript run -f`, which
# must fail with the message of the function's `# raises:` line. (The case files check the
# same under PyTorch when run by python.)
builddir=${TS_BUILDDIR:-$(pwd)}
file=$1
out=$("$builddir/tscript" test "$file" 2>&1)
status=$?
printf '%s\n' "$out" | grep -v '^1\.\.[0-9]*$'
n=$(printf '%s\n' "$out" | grep -c '^\(not \)\{0,1\}ok ')
[ $status -eq 0 ] || { n=$((n + 1)); echo "not ok $n - tscript test exited with $status"; }
for name in $(sed -n 's/^def \(err_[a-z0-9_]*\)(.*/\1/p' "$file"); do
    n=$((n + 1))
    want=$(sed -n "/^def $name(/,/^\$/s/.*# raises: //p" "$file")
    got=$("$builddir/tscript" run "$file" -f "$name" 2>&1 >/dev/null)
    case "$got" in
    *"$want"*) echo "ok $n - $name" ;;
    *) echo "not ok $n - $name"; printf '%s\n' "$got" | sed 's/^/# /' ;;
    esac
done
echo "1..$n"
