#!/bin/sh
# t/headers.sh — the installed headers are one contract for C, C++ and CUDA: a file that
# includes every one of them compiles warning-free as C11, as C++17 and C++20 (g++ -Wall
# -Wextra -Werror), and through nvcc where configure found the CUDA Toolkit (a plugin's .cu
# file is C++). Each header also compiles alone (it includes what it needs).
: "${TS_SRCDIR:=.}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
result() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
try() {   # try DESCRIPTION COMMAND...: one test, the compiler's output as diagnostics
    what=$1; shift
    if "$@" >"$tmp/out" 2>&1; then result 0 "$what"; else result 1 "$what"; sed 's/^/# /' "$tmp/out"; fi
}

inc=$TS_SRCDIR/include
: >"$tmp/all.h"
for h in "$inc"/tscript/*.h; do
    echo "#include <tscript/$(basename "$h")>" >>"$tmp/all.h"
done
# Uses a little of each, so that the inline functions are compiled too.
cat "$tmp/all.h" - >"$tmp/all.c" <<'EOF2'
int use_all(void);
int use_all(void)
{
    TsValue v = ts_int(1);
    TsError err = TS_ERROR_INIT;
    ts_value_release(v);
    return (int)ts_value_is_shared(v) + (int)(err.code == TS_OK) + (int)TS_ABI_VERSION +
           (int)(ts_random_normal(ts_random_draw(0, 1), ts_random_draw(0, 2), 0, 1) > 0);
}
EOF2
cp "$tmp/all.c" "$tmp/all.cpp"
cp "$tmp/all.c" "$tmp/all.cu"

CC=${CC:-cc}
try "every header compiles as C11 with -Wall -Wextra -pedantic -Werror" \
    $CC -std=c11 -Wall -Wextra -pedantic -Werror -I"$inc" -c "$tmp/all.c" -o "$tmp/c.o"
for h in "$inc"/tscript/*.h; do
    b=$(basename "$h")
    printf '#include <tscript/%s>\n#include <tscript/%s>\nint x_%s;\n' "$b" "$b" "${b%.h}" >"$tmp/one.c"
    try "tscript/$b compiles alone, twice" $CC -std=c11 -Wall -Wextra -Werror -I"$inc" \
        -c "$tmp/one.c" -o "$tmp/one.o"
done
if [ -z "$TS_CXX" ] || [ "$TS_CXX" = none ]; then
    echo "# no C++ compiler: the C++ checks are skipped"
    result 0 "C++17 # SKIP no C++ compiler"
    result 0 "C++20 # SKIP no C++ compiler"
else
    for std in c++17 c++20; do
        try "every header compiles as $std with -Wall -Wextra -Werror" \
            $TS_CXX -std=$std -Wall -Wextra -Werror -I"$inc" -c "$tmp/all.cpp" -o "$tmp/cpp.o"
    done
fi
if [ -n "$NVCC" ] && [ -x "$NVCC" ]; then
    try "every header compiles through nvcc" \
        "$NVCC" -std=c++17 -Xcompiler -Wall,-Wextra,-Werror -I"$inc" -c "$tmp/all.cu" -o "$tmp/cu.o"
else
    result 0 "nvcc # SKIP configure found no CUDA Toolkit"
fi
echo "1..$n"
