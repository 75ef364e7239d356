#!/bin/sh
# t/fuzz/build.sh DIR — builds the libFuzzer targets in DIR: parse_fuzz and emit_fuzz
# (TorchScript source), zip_fuzz, unpickle_fuzz and npy_fuzz (the readers of .pt and .npy),
# pt_fuzz (the whole .pt loader: entries written into a zip, loaded, methods compiled).
#
# DIR gets its own clang configure of the tree with coverage for libFuzzer, ASan and UBSan;
# the library and the plugins are built there (emit_fuzz opens the real operator table, which
# finds them because it runs from that build tree), then the targets are linked. Seed corpora:
# DIR/corpus (the conformance cases and the TorchScript files under t/, for parse_fuzz and
# emit_fuzz), DIR/corpus_zip (the archives in t/data/serialize), DIR/corpus_unpickle (their
# pickles), DIR/corpus_npy (t/data/serialize/npy) and DIR/corpus_pt (the archives of
# t/data and the conformance suite, entry by entry); t/fuzz/pickle.dict is a dictionary for
# unpickle_fuzz (-dict=). t/fuzz/README says how they are run.
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
make -j2 libtscript_core.la plugins/prim/prim.la plugins/aten-cpu/aten-cpu.la
# The targets reach core internals: they link the core statically, all of it, and export its
# public API for the plugins they load (as the CLI does; Makefile.am says why).
core="-Wl,--export-dynamic -Wl,--whole-archive .libs/libtscript_core.a -Wl,--no-whole-archive
 $(pkg-config --libs yaml-0.1 zlib) -lm -ldl -lpthread -Wl,-rpath,$(pwd)/.libs"
flags="-std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer $san -I$top/include -I$top/core -I."
"$cc" $flags "$top/t/fuzz/parse_fuzz.c" $core \
    -o parse_fuzz
"$cc" $flags "$top/t/fuzz/emit_fuzz.c" $core \
    -o emit_fuzz
for target in zip_fuzz unpickle_fuzz npy_fuzz pt_fuzz; do
    "$cc" $flags "$top/t/fuzz/$target.c" $core \
        -o "$target"
done
mkdir -p corpus
for f in "$top"/../shared/conformance/cases/*/*.py "$top"/t/*.py "$top"/t/*/*.py \
         "$top"/t/data/*/*.py "$top"/examples/*.py; do
    [ -f "$f" ] || continue
    # folder_file.py, so cases of the same name in different folders all stay
    cp "$f" "corpus/$(basename "$(dirname "$f")")_$(basename "$f")"
done
mkdir -p corpus_zip corpus_unpickle corpus_npy corpus_pt
cp "$top"/t/data/serialize/*.pt corpus_zip/
cp "$top"/t/data/serialize/npy/*.npy corpus_npy/
python3 - "$top"/t/data/serialize/*.pt <<'EOF'
import os, sys, zipfile
for path in sys.argv[1:]:
    z = zipfile.ZipFile(path)
    for name in z.namelist():
        if name.endswith("pkl"):      # data.pkl, constants.pkl, .debug_pkl
            base = os.path.basename(path)[:-3] + "_" + name.replace("/", "_")
            open(os.path.join("corpus_unpickle", base), "wb").write(z.read(name))
EOF
python3 - "$top"/t/data/serialize/*.pt "$top"/t/data/cli/*.pt "$top"/examples/model/*.pt \
    "$top"/../shared/conformance/cases/modules/*.pt <<'EOF'
import os, struct, sys, zipfile
for path in sys.argv[1:]:
    if not os.path.exists(path):
        continue
    z = zipfile.ZipFile(path)
    out = b""
    for name in z.namelist():
        rest = name.split("/", 1)[1] if "/" in name else name
        if rest.endswith(".debug_pkl"):
            continue
        data = z.read(name)
        out += rest.encode() + b"\n" + struct.pack("<I", len(data)) + data
    base = os.path.basename(os.path.dirname(path)) + "_" + os.path.basename(path)
    open(os.path.join("corpus_pt", base), "wb").write(out)
EOF
for c in corpus corpus_zip corpus_unpickle corpus_npy corpus_pt; do
    echo "$c: $(ls $c | wc -l) files"
done
echo "built $1/parse_fuzz, emit_fuzz, zip_fuzz, unpickle_fuzz, npy_fuzz, pt_fuzz"
