# fuser/tap.sh — sourced by the fusers' and captures' script tests (t/fuser_cpu.sh,
# t/fuser_cuda.sh, t/gpu/fuser_cuda.sh, t/capture.sh, t/gpu/capture.sh): check(), which
# prints one TAP line, close(), which compares two outputs within float32 rounding, and
# done_testing.
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

# close A B: the same words, numbers equal within a relative 1e-5 (nan and inf exactly);
# uses $tmp for scratch
close() {
    tr -s ' \t,()[]=' '\n' <"$1" | sed '/^$/d' >"$tmp/a.words"
    tr -s ' \t,()[]=' '\n' <"$2" | sed '/^$/d' >"$tmp/b.words"
    paste -d ' ' "$tmp/a.words" "$tmp/b.words" | awk '
        NF != 2 { bad = 1; exit }
        $1 == $2 { next }
        $1 ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/ && $2 ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/ {
            d = $1 - $2; if (d < 0) d = -d
            m = $1 < 0 ? -$1 : $1
            if (d <= 1e-5 * m + 1e-6) next
        }
        { bad = 1; exit }
        END { exit bad }'
}

done_testing() {
    echo "1..$n"
    [ $failed -eq 0 ]
}
