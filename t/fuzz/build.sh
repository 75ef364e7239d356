#!/bin/sh
# t/fuzz/build.sh DIR — builds the libFuzzer targets (parse_fuzz, emit_fuzz) in DIR.
#
# DIR gets its own clang configure of the tree with coverage for libFuzzer, ASan and UBSan;
# the library and the plugins are built there (emit_fuzz opens the real operator table, which
# finds them because it runs from that build tree), then the targets are linked, and
# DIR/corpus is seeded with the conformance cases and the TorchScript files under t/.
# Run from the top of the source tree; CC overrides clang-14.
set -e
[ $# -eq 1 ] || { echo "usage: t/fuzz/build.sh DIR" >&2; exit 2; }
top=$(pwd)
[ -f "$top/t/fuzz/emit_fuzz.c" ] || { echo "run from the top of the source tree" >&2; exit 2; }
cc=${CC:-clang-14}
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
mkdir -p "$1"
cd "$1"
if [ ! -f Makefile ]; then
    "$top/configure" -q CC="$cc" CFLAGS="-g -O1 -fsanitize=fuzzer-no-link $san" \
        LDFLAGS="$san"
fi
make -j2 libtscript.la plugins/prim/prim.la plugins/aten-cpu/aten-cpu.la
flags="-std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer $san -I$top/include -I$top/core -I."
"$cc" $flags "$top/t/fuzz/parse_fuzz.c" .libs/libtscript.so -Wl,-rpath,"$(pwd)/.libs" \
    -o parse_fuzz
"$cc" $flags "$top/t/fuzz/emit_fuzz.c" .libs/libtscript.so -Wl,-rpath,"$(pwd)/.libs" \
    -o emit_fuzz
mkdir -p corpus
for f in "$top"/../shared/conformance/cases/*/*.py "$top"/t/*.py "$top"/t/*/*.py \
         "$top"/t/data/*/*.py "$top"/examples/*.py; do
    [ -f "$f" ] || continue
    # folder_file.py, so cases of the same name in different folders all stay
    cp "$f" "corpus/$(basename "$(dirname "$f")")_$(basename "$f")"
done
echo "built $1/parse_fuzz and $1/emit_fuzz; corpus: $(ls corpus | wc -l) files"
