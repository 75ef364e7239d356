#!/bin/sh
# sweep.sh — the full allocation-failure sweep, run by hand (t/oom/README): every case of
# t/oom/cases.sh with its Nth allocation failing, for every N from 1 to the number of
# allocations its normal run makes, and every Mth N under valgrind.
#
#   t/oom/sweep.sh [-j JOBS] [-v M] [-s STEP] [-f FIRST] [CASE...]   (in the build directory)
#
# -j runs JOBS runs at a time (default 2); -s STEP sweeps every STEPth N only (default 1:
# all), from FIRST (default 1: -f 8000 leaves out most of the plugins' start-up, which
# every case shares); -v M runs every Mth of those under valgrind (default 100; 0: none).
# Prints a line per failing run ("CASE N: why") and a summary per case; exits 1 when any
# run failed.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
jobs=2 vstride=100 step=1 first=1
while getopts j:v:s:f: opt; do
    case $opt in
    j) jobs=$OPTARG ;;
    v) vstride=$OPTARG ;;
    s) step=$OPTARG ;;
    f) first=$OPTARG ;;
    *) echo "usage: $0 [-j JOBS] [-v M] [-s STEP] [-f FIRST] [CASE...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
. "$srcdir/t/oom/oom_lib.sh"
if [ -n "$oom_skip" ]; then
    echo "sweep.sh: cannot sweep: $oom_skip" >&2
    exit 1
fi

status=0
oom_case() {
    name=$1
    shift 2
    if [ -n "$only" ] && ! echo " $only " | grep -q " $name "; then
        return
    fi
    if ! oom_reference "$name" "$@" >"$tmp/$name.why"; then
        echo "$name: $(cat "$tmp/$name.why")"
        status=1
        return
    fi
    start=$(date +%s)
    # worker j takes the Ns congruent to j modulo jobs
    j=0
    while [ $j -lt "$jobs" ]; do
        (
            n=$((first + j * step)) runs=0 vgruns=0
            while [ $n -le "$oom_calls" ]; do
                vg=0
                [ "$vstride" -gt 0 ] && [ $(((n - first) / step % vstride)) -eq 0 ] && vg=1
                oom_run "$name" $n $vg "$@"
                runs=$((runs + 1)) vgruns=$((vgruns + vg))
                n=$((n + jobs * step))
            done
            echo "$runs $vgruns" >"$tmp/$name.runs.$j"
        ) >"$tmp/$name.fail.$j" &
        j=$((j + 1))
    done
    wait
    cat "$tmp/$name".fail.* | sort -n | sed "s/^/$name /"
    fails=$(cat "$tmp/$name".fail.* | wc -l)
    runs=$(cat "$tmp/$name".runs.* | awk '{ r += $1; v += $2 } END { print r " runs (" v }')
    echo "$name: $runs under valgrind), N = $first..$oom_calls step $step: $fails failed," \
        "$(($(date +%s) - start)) s"
    [ "$fails" -eq 0 ] || status=1
}
only="$*"
oom_cases
exit $status
