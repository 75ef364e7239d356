#!/bin/sh
# oom.sh — make check's sample of the allocation-failure sweep (t/oom/README): each case of
# t/oom/cases.sh marked for make check runs with its Nth allocation failing for about
# $TS_OOM_RUNS (default 60) values of N spread over its whole range, and for two of
# them under valgrind (skipped without valgrind). Every run must end normally or in an
# "out of memory" error with exit 1 (t/oom/oom_lib.sh says exactly what passes). One TAP
# line per case and per valgrind sample; the failing Ns are listed under a failing line.
# The full sweep, every N, is t/oom/sweep.sh.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
runs=${TS_OOM_RUNS:-60}
. "$srcdir/t/oom/oom_lib.sh"
if [ -n "$oom_skip" ]; then
    echo "1..0 # SKIP $oom_skip"
    exit 0
fi
have_valgrind=0
command -v valgrind >/dev/null 2>&1 && have_valgrind=1

t=0
failed=0
result() {
    t=$((t + 1))
    if [ -z "$2" ]; then
        echo "ok $t - $1"
    else
        echo "not ok $t - $1"
        echo "$2" | head -20 | sed 's/^/# /'
        failed=$((failed + 1))
    fi
}

# Each case starts at its own offset, so the cases' samples of the start-up they share
# (loading the plugins) fall on different Ns.
offset=0
oom_case() {
    name=$1 in_check=$2
    shift 2
    [ "$in_check" = 1 ] || return
    offset=$((offset + 1))
    if ! oom_reference "$name" "$@" >"$tmp/$name.why"; then
        result "$name: the normal run" "$(cat "$tmp/$name.why")"
        return
    fi
    step=$(((oom_calls + runs - 1) / runs))
    n=$offset count=0
    : >"$tmp/$name.fails"
    while [ $n -le "$oom_calls" ]; do
        oom_run "$name" $n 0 "$@" >>"$tmp/$name.fails"
        n=$((n + step)) count=$((count + 1))
    done
    result "$name: $count of its $oom_calls allocations fail in turn" "$(cat "$tmp/$name.fails")"
    # and each of the first 16: reading the command line and the config, where a failure
    # once read as another error (a config's directory lost: "schema file not found")
    : >"$tmp/$name.fails"
    n=1
    while [ $n -le 16 ] && [ $n -le "$oom_calls" ]; do
        oom_run "$name" $n 0 "$@" >>"$tmp/$name.fails"
        n=$((n + 1))
    done
    result "$name: each of its first 16 allocations fails in turn" "$(cat "$tmp/$name.fails")"
    # under valgrind: one late (past the start-up, which every case shares) and the last
    for n in $((oom_calls * 3 / 4 + offset)) $oom_calls; do
        if [ $have_valgrind = 0 ]; then
            t=$((t + 1))
            echo "ok $t - $name: allocation $n fails under valgrind # SKIP no valgrind"
            continue
        fi
        result "$name: allocation $n fails under valgrind: no leak, no invalid access" \
            "$(oom_run "$name" $n 1 "$@")"
    done
}
oom_cases
echo "1..$t"
[ $failed -eq 0 ]
