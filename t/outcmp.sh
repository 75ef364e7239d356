#!/bin/sh
# outcmp.sh — t/outcmp.py, the output comparison of examples.sh and lang_print.sh, accepts
# the differences between CPUs (the last printed digit, rel 1e-4) and nothing else.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=${TMPDIR:-/tmp}/outcmp.$$
trap 'rm -f "$tmp".a "$tmp".b' EXIT
n=0 failed=0
check() { # WANT-STATUS DESCRIPTION EXPECTED-TEXT GOT-TEXT
    n=$((n + 1))
    printf '%b' "$3" >"$tmp.a"; printf '%b' "$4" >"$tmp.b"
    python3 "$srcdir/t/outcmp.py" "$tmp.a" "$tmp.b" >/dev/null
    if [ $? -eq "$1" ]; then echo "ok $n - $2"; else failed=$((failed + 1)); echo "not ok $n - $2"; fi
}
check 0 "one unit in the last digit of an exponent form" "x 2.4022e-24\n" "x 2.4021e-24\n"
check 0 "a relative 1e-5 inside a container" "[1.2345678, 2.]\n" "[1.2345679, 2.]\n"
check 0 "tensor columns with a shared scale" " 0.1234  0.5678\n[ CPUFloatType{2} ]\n" " 0.1235  0.5678\n[ CPUFloatType{2} ]\n"
check 1 "a difference of two units in the last digit" "[1.5, 2.]\n" "[1.7, 2.]\n"
check 1 "a different word" "Enum<Color.RED>\n" "Enum<Color.BLUE>\n"
check 1 "a missing line" "1\n2\n" "1\n"
check 1 "an extra word" "1 2\n" "1 2 3\n"
check 1 "brackets around a number must agree" "[1]\n" "(1)\n"
check 1 "nan is not a number" "nan\n" "1.\n"
echo "1..$n"
[ $failed -eq 0 ]
