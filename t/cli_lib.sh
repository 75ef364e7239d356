# cli_lib.sh — sourced by the tests of the `tscript` program (t/cli.sh, t/cli_options.sh,
# t/cli_test.sh): where things are, a scratch directory, and check(), which runs tscript and
# prints one TAP line.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tscript=$builddir/tscript
data=$srcdir/t/data/cli
scratch=${TMPDIR:-/tmp}/tscript_cli.$$
mkdir -p "$scratch" || exit 1
trap 'rm -rf "$scratch"' EXIT
out=$scratch/stdout
err=$scratch/stderr
n=0
failed=0
nl='
'

# ok WHAT: a passing test line; notok WHAT: a failing one with what tscript wrote.
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() {
    n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"
    sed 's/^/# stdout: /' "$out" | head -20
    sed 's/^/# stderr: /' "$err" | head -20
}

# check WHAT WANT_STATUS STDOUT_WANT STDERR_PHRASE -- ARGS...
# Runs tscript ARGS (stdin as the caller redirects it): the exit status must be WANT_STATUS,
# stdout exactly STDOUT_WANT, stderr must hold STDERR_PHRASE (when not empty), and a failure
# must report itself as "tscript: WHAT: WHY" on the first line of stderr.
check() {
    what=$1 want=$2 stdout_want=$3 phrase=$4
    shift 5
    "$tscript" "$@" >"$out" 2>"$err"
    rc=$?
    if [ $rc -eq "$want" ] && [ "$(cat "$out")" = "$stdout_want" ] &&
        { [ -z "$phrase" ] || grep -qF -- "$phrase" "$err"; } &&
        { [ "$want" -eq 0 ] || head -1 "$err" | grep -q '^tscript: [^:][^:]*: [^ ]'; }; then
        ok "$what"
    else
        notok "$what (exit $rc, want $want)"
    fi
}

# done_testing: the plan, and the exit status.
done_testing() {
    echo "1..$n"
    [ $failed -eq 0 ]
}
