#!/bin/sh
# t/embed.sh — the embedding examples (examples/embed/embed.c and embed.cpp) as a user
# builds them: tscript installed (make install DESTDIR=t/embed-dest, done by make check
# before the tests run: core/api/api.mk), the programs compiled against
# the installed headers with `pkg-config --cflags --libs tscript` and nothing of the source
# tree, then run on examples/embed/linear.pt (saved by PyTorch 1.13) with the installed
# plugins. The installed prefix is the configured one under DESTDIR, so pkg-config is told
# where it now is, and the runtime finds the plugins through $TSCRIPT_PLUGIN_PATH and
# $TSCRIPT_SCHEMA_PATH, as it would a relocated install.
: "${TS_BUILDDIR:=.}" "${TS_SRCDIR:=.}"
if ! command -v pkg-config >/dev/null 2>&1; then echo "1..0 # SKIP pkg-config not installed"; exit 0; fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
result() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
try() {   # try DESCRIPTION COMMAND...
    what=$1; shift
    if "$@" >"$tmp/out" 2>&1; then result 0 "$what"; else result 1 "$what"; sed 's/^/# /' "$tmp/out"; fi
}

dest=$TS_BUILDDIR/t/embed-dest
if [ ! -f "$TS_BUILDDIR/t/embed-dest.stamp" ]; then
    echo "Bail out! no installed tree in $dest: run it through make check"
    exit 1
fi
prefix=$(sed -n 's/^prefix=//p' "$TS_BUILDDIR/tscript.pc")
pcdir=$(find "$dest" -name tscript.pc -path '*/pkgconfig/*' | head -n 1)
result $([ -n "$pcdir" ] && echo 0 || echo 1) "tscript.pc is installed"
[ -n "$pcdir" ] || { echo "1..$n"; exit 1; }
root=$dest$prefix
pc() { PKG_CONFIG_PATH=$(dirname "$pcdir") pkg-config --define-variable=prefix="$root" "$@" tscript; }
cflags=$(pc --cflags) libs=$(pc --libs)
outside=
for f in $cflags $libs; do
    case $f in
        -I"$root"/*|-L"$root"/*|-l*) ;;
        *) outside="$outside $f" ;;
    esac
done
result $([ -z "$outside" ] && echo 0 || echo 1) "pkg-config names only the installed prefix$outside"
try "tscript/tscript.h is installed" test -f "$root/include/tscript/tscript.h"

libdir=$(pc --variable=libdir)
pkglibdir=$(pc --variable=pkglibdir)
pkgdatadir=$(pc --variable=pkgdatadir)
cp "$TS_SRCDIR/examples/embed/embed.c" "$TS_SRCDIR/examples/embed/embed.cpp" \
   "$TS_SRCDIR/examples/embed/linear.pt" "$tmp/"
run() {   # run PROGRAM: in the temp dir, with the installed library and plugins
    (cd "$tmp" && env -u TSCRIPT_CONFIG LD_LIBRARY_PATH="$libdir" TSCRIPT_PLUGIN_PATH="$pkglibdir" \
        TSCRIPT_SCHEMA_PATH="$pkgdatadir/schemas" "$@")
}

CC=${CC:-cc}
# a library built with --enable-sanitizers/--enable-tsan needs its runtime in the program
san=${TS_SAN_FLAGS:-}
# shellcheck disable=SC2086
try "embed.c compiles with pkg-config's flags alone" \
    $CC -std=c11 -Wall -Wextra -Werror -o "$tmp/embed" "$tmp/embed.c" $cflags $libs $san
if run ./embed linear.pt >"$tmp/c.out" 2>&1; then
    # PyTorch: relu(fc(x)) * 2 for x = [1, 2, 3, 4] is [7, 0] (make_model.py prints it)
    awk 'NF == 2 && $1 > 6.9999 && $1 < 7.0001 && $2 == 0 {ok = 1} END {exit !ok}' "$tmp/c.out"
    result $? "embed (C) prints forward(x) = [7, 0], as PyTorch computes it"
else
    result 1 "embed (C) runs"
fi
sed 's/^/# /' "$tmp/c.out"

if [ -z "$TS_CXX" ] || [ "$TS_CXX" = none ]; then
    result 0 "embed.cpp # SKIP no C++ compiler"
else
    # shellcheck disable=SC2086
    try "embed.cpp compiles with pkg-config's flags alone" \
        $TS_CXX -std=c++17 -Wall -Wextra -Werror -o "$tmp/embedxx" "$tmp/embed.cpp" $cflags $libs \
        $san
    if run ./embedxx linear.pt >"$tmp/cpp.out" 2>&1; then
        grep -q '^double_sum: 20$' "$tmp/cpp.out"
        result $? "embed (C++) runs the function compiled from source: sum(x * 2) = 20"
        awk '/^forward:/ {f = 1; next} f && NF == 2 && $1 + 0 > 6.9999 && $1 + 0 < 7.0001 && $2 == 0 {ok = 1}
             END {exit !ok}' "$tmp/cpp.out"
        result $? "embed (C++) prints forward(x) = [7, 0] as PyTorch prints tensors"
    else
        result 1 "embed (C++) runs"
    fi
    sed 's/^/# /' "$tmp/cpp.out"
fi
echo "1..$n"
