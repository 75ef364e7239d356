# oom_lib.sh — sourced by the allocation-failure sweeps (t/oom.sh in make check, every Kth
# N; t/oom/sweep.sh by hand, every N): runs a command with its Nth allocation failing
# (t/oom/failalloc.c, preloaded) and judges how it ended.
#
# A run passes when it ends as the normal run does (exit 0, the same stdout), or with exit
# 1, stderr starting "tscript: " (the CLI's "tscript: WHAT: WHY"), "out of memory" in the
# message and stdout a prefix of the normal run's (what it printed before the failure).
# Anything else fails:
# a signal, an abort, a hang (timeout), another exit status, another error, garbage output,
# and under valgrind an invalid access or a definite leak.
#
# The caller sets srcdir and builddir; this sets tscript, failalloc (the preloaded object),
# tmp (a scratch directory, removed at exit), oom_skip (why the sweep cannot run here, or
# nothing) and reads the cases (t/oom/cases.sh).
tscript=$builddir/tscript
failalloc=$builddir/t/oom/.libs/failalloc.so
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oom.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$srcdir/t/oom/cases.sh"

# Valgrind must leave the interposer's malloc alone (by default it replaces any malloc it
# sees) and check the glibc allocations behind it instead.
oom_valgrind="valgrind -q --soname-synonyms=somalloc=nouserintercepts --leak-check=full \
--errors-for-leak-kinds=definite --show-leak-kinds=definite --error-exitcode=99"

# oom_timeout: a limit for one run, in seconds (valgrind is ~30 times slower)
oom_limit=60
oom_vg_limit=300

# oom_skip_reason: why the interposer cannot work with this build, or nothing. A sanitizer
# runtime must be the first object loaded and replaces malloc itself.
oom_skip_reason() {
    if grep -qa -e __asan_init -e __tsan_init -e __msan_init "$tscript"; then
        echo "tscript is built with a sanitizer, which owns malloc"
    elif [ ! -f "$failalloc" ]; then
        echo "no $failalloc"
    fi
}

# oom_reference NAME CMD...: the normal run, counting allocations: $tmp/NAME.ref.out,
# oom_calls set to the count. Returns 1 (and prints why) when it does not succeed.
oom_reference() {
    name=$1
    shift
    rm -f "$tmp/$name.ref.count"
    TS_FAIL_ALLOC_COUNT=$tmp/$name.ref.count LD_PRELOAD=$failalloc \
        timeout $oom_limit "$@" >"$tmp/$name.ref.out" 2>"$tmp/$name.ref.err"
    rc=$?
    oom_calls=$(sed -n 's/^calls //p' "$tmp/$name.ref.count" 2>/dev/null)
    if [ $rc -ne 0 ] || [ -z "$oom_calls" ]; then
        echo "the normal run of $name fails (exit $rc): $(head -c 300 "$tmp/$name.ref.err")"
        return 1
    fi
}

# oom_run NAME N VALGRIND CMD...: one run with the Nth allocation failing (under valgrind
# when VALGRIND is 1). Prints nothing when it passes, else one line "N: why".
oom_run() {
    name=$1 n=$2 vg=$3
    shift 3
    f=$tmp/$name.$n
    limit=$oom_limit
    if [ "$vg" = 1 ]; then
        limit=$oom_vg_limit
        set -- $oom_valgrind --log-file="$f.vg" "$@"
    fi
    rm -f "$f.count"
    TS_FAIL_ALLOC=$n TS_FAIL_ALLOC_COUNT=$f.count LD_PRELOAD=$failalloc \
        timeout $limit "$@" >"$f.out" 2>"$f.err"
    rc=$?
    why=
    case $rc in
    0)
        cmp -s "$f.out" "$tmp/$name.ref.out" ||
            why="exit 0, but stdout is not the normal run's"
        ;;
    1)
        size=$(wc -c <"$f.out")
        if ! grep -q "^failed $n\$" "$f.count" 2>/dev/null; then
            why="exit 1, but no allocation failed: $(head -c 200 "$f.err")"
        elif ! head -1 "$f.err" | grep -q '^tscript: '; then
            why="exit 1 without 'tscript: ' first: $(head -c 200 "$f.err")"
        elif ! grep -q "out of memory" "$f.err"; then
            why="exit 1 without 'out of memory': $(head -c 300 "$f.err" | tr '\n' ' ')"
        elif ! head -c "$size" "$tmp/$name.ref.out" | cmp -s - "$f.out"; then
            why="exit 1 after output the normal run does not print"
        fi
        ;;
    99) why="valgrind: $(grep -m1 -e 'definitely lost' -e 'Invalid' -e 'uninitialised' \
            -e 'Mismatched' "$f.vg" | sed 's/^==[0-9]*== //')" ;;
    124) why="no end within $limit s" ;;
    *) if [ $rc -gt 128 ]; then why="killed by signal $((rc - 128))"; else why="exit $rc"; fi ;;
    esac
    if [ "$vg" = 1 ] && [ -s "$f.vg" ] && [ -z "$why" ]; then
        why="valgrind: $(head -1 "$f.vg" | sed 's/^==[0-9]*== //')"
    fi
    if [ -n "$why" ]; then
        echo "$n: $why"
    else
        rm -f "$f.out" "$f.err" "$f.count" "$f.vg"
    fi
}

oom_skip=$(oom_skip_reason)
