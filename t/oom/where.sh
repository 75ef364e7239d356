#!/bin/sh
# where.sh — where a failing run of the sweep fails: reruns CMD with allocation N failing and
# TS_FAIL_ALLOC_TRACE set, and names each frame of the failing call's stack (addr2line),
# followed by the run's own stderr.
#
#   t/oom/where.sh N CMD...          (from the build directory)
builddir=${TS_BUILDDIR:-$(pwd)}
n=$1
shift
TS_FAIL_ALLOC_TRACE=1 TS_FAIL_ALLOC=$n LD_PRELOAD=$builddir/t/oom/.libs/failalloc.so "$@" \
    2>&1 >/dev/null | while IFS= read -r line; do
    obj=${line%%(*}
    off=$(echo "$line" | sed -n 's/.*(+\(0x[0-9a-f]*\)).*/\1/p')
    if [ -n "$off" ] && [ -f "$obj" ]; then
        addr2line -f -i -p -e "$obj" $(printf '0x%x' $((off - 1)))
    else
        echo "$line"
    fi
done
