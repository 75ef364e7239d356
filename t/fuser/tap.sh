# fuser/tap.sh — sourced by the fusers' script tests (t/fuser_cpu.sh, t/fuser_cuda.sh,
# t/gpu/fuser_cuda.sh): check(), which prints one TAP line, and done_testing.
n=0
failed=0

check() {  # check OK WHAT [FILE...]: a result, with FILEs shown on failure
    n=$((n + 1))
    if [ "$1" = 0 ]; then
        echo "ok $n - $2"
    else
        failed=$((failed + 1))
        echo "not ok $n - $2"
        shift 2
        for f in "$@"; do sed "s|^|# $(basename "$f"): |" "$f" | head -15; done
    fi
}

done_testing() {
    echo "1..$n"
    [ $failed -eq 0 ]
}
