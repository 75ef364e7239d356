#!/bin/sh
# t/fuzz/build.sh DIR — builds the libFuzzer targets in DIR: parse_fuzz and emit_fuzz
# (TorchScript source), zip_fuzz, unpickle_fuzz and npy_fuzz (the readers of .pt and .npy),
# pt_fuzz (the whole .pt loader: entries written into a zip, loaded, methods compiled),
# schema_fuzz (schema strings, round trip), yaml_fuzz (schema set files: the fast scanner
# against libyaml), config_fuzz (config files) and ir_fuzz (IR text, round trip).
#
# DIR gets its own clang configure of the tree with coverage for libFuzzer, ASan and UBSan;
# the library, the plugins and the tscript program are built there (emit_fuzz opens the real
# operator table, which finds them because it runs from that build tree), then the targets
# are linked. Seed corpora:
#   DIR/corpus          the conformance cases and the TorchScript files under t/ and
#                       examples/ (parse_fuzz, emit_fuzz)
#   DIR/corpus_zip      the archives in t/data/serialize
#   DIR/corpus_unpickle their pickles
#   DIR/corpus_npy      t/data/serialize/npy
#   DIR/corpus_pt       the archives of t/data, examples and the conformance suite, entry by
#                       entry (the input form pt_fuzz.c describes)
#   DIR/corpus_schema   every schema of t/data/schemas.txt, schemas_normalized.txt and
#                       bad_schemas.txt, one a file after schema_fuzz's namespace byte
#   DIR/corpus_yaml     the schema sets of schemas/, t/data and examples, whole and cut into
#                       pieces of four entries
#   DIR/corpus_config   the config files of the tree and t/fuzz/seeds/config, each after
#                       config_fuzz's name byte
#   DIR/corpus_ir       t/data/ir, and the graph `tscript graph` prints for each program of
#                       DIR/corpus that compiles
# t/fuzz/pickle.dict is a dictionary for unpickle_fuzz (-dict=). t/fuzz/README says how the
# targets are run; t/fuzz/ci.sh runs each briefly in CI.
# Run from the top of the source tree; CC overrides clang-14.
set -e
[ $# -eq 1 ] || { echo "usage: t/fuzz/build.sh DIR" >&2; exit 2; }
top=$(pwd)
[ -f "$top/t/fuzz/emit_fuzz.c" ] || { echo "run from the top of the source tree" >&2; exit 2; }
cc=${CC:-clang-14}
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
targets="parse_fuzz emit_fuzz zip_fuzz unpickle_fuzz npy_fuzz pt_fuzz schema_fuzz yaml_fuzz
         config_fuzz ir_fuzz"
mkdir -p "$1"
cd "$1"
# --enable-sanitizers adds the same ASan + UBSan flags as $san to CFLAGS and LDFLAGS, and
# tells the tests so (t/embed.sh links its programs with them): CI runs make check here too.
if [ ! -f Makefile ]; then
    "$top/configure" -q --enable-sanitizers CC="$cc" CFLAGS="-g -O1 -fsanitize=fuzzer-no-link"
fi
# The plugins of the embedded default config (core/registry/config.c): the targets that
# open a runtime load them (aten-dnnl too where configure found oneDNN).
dnnl=
grep -q '^#define TS_HAVE_DNNL 1' config.h && dnnl=plugins/aten-dnnl/aten-dnnl.la
make -j2 libtscript_core.la plugins/prim/prim.la plugins/aten-cpu/aten-cpu.la \
    plugins/fuser-cpu/fuser-cpu.la $dnnl tscript
# The targets reach core internals: they link the core statically, all of it, and export its
# public API for the plugins they load (as the CLI does; Makefile.am says why).
core="-Wl,--export-dynamic -Wl,--whole-archive .libs/libtscript_core.a -Wl,--no-whole-archive
 $(pkg-config --libs yaml-0.1 zlib) -lm -ldl -lpthread -Wl,-rpath,$(pwd)/.libs"
flags="-std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer $san -I$top/include -I$top/core -I."
for target in $targets; do
    "$cc" $flags "$top/t/fuzz/$target.c" $core \
        -o "$target"
done

mkdir -p corpus corpus_zip corpus_unpickle corpus_npy corpus_pt corpus_schema corpus_yaml \
    corpus_config corpus_ir
for f in "$top"/../shared/conformance/cases/*/*.py "$top"/t/*.py "$top"/t/*/*.py \
         "$top"/t/data/*/*.py "$top"/examples/*.py; do
    [ -f "$f" ] || continue
    # folder_file.py, so cases of the same name in different folders all stay
    cp "$f" "corpus/$(basename "$(dirname "$f")")_$(basename "$f")"
done
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
# Schema strings: schema_fuzz's first byte picks the default namespace ('0': none, '1':
# aten); the normalized inputs are also given without their "aten::", read with aten.
python3 - "$top"/t/data <<'EOF'
import os, sys
n = 0
def seed(data):
    global n
    n += 1
    open("corpus_schema/s%05d" % n, "wb").write(data)
def lines(name):
    for line in open(os.path.join(sys.argv[1], name), "rb"):
        line = line.rstrip(b"\n")
        if line.strip() and not line.startswith(b"#"):
            yield line
for line in lines("schemas.txt"):
    seed(b"0" + line)
for line in lines("schemas_normalized.txt"):
    for text in line.split(b"\t")[:2]:
        seed(b"0" + text)
        if text.startswith(b"aten::"):
            seed(b"1" + text[6:])
for line in lines("bad_schemas.txt"):
    seed(b"0" + line.split(b"\t", 2)[-1])
EOF
# Schema sets: each file whole, and in pieces of four entries (a piece keeps the lines
# before the first entry, so a "namespace:" header stays).
python3 - "$top"/schemas/*.yaml "$top"/t/data/*.yaml "$top"/t/data/match/*.yaml \
    "$top"/examples/plugins/vendor/acme.yaml <<'EOF'
import os, sys
for path in sys.argv[1:]:
    if not os.path.exists(path):
        continue
    base = os.path.basename(os.path.dirname(path)) + "_" + os.path.basename(path)
    lines = open(path, "rb").read().splitlines(True)
    open(os.path.join("corpus_yaml", base), "wb").write(b"".join(lines))
    starts = [i for i, l in enumerate(lines) if l.lstrip().startswith(b"- ")]
    for k in range(0, len(starts), 4) if len(starts) > 4 else []:
        end = starts[k + 4] if k + 4 < len(starts) else len(lines)
        piece = lines[:starts[0]] + lines[starts[k]:end]
        open(os.path.join("corpus_yaml", "%s.%d" % (base, k // 4)), "wb").write(b"".join(piece))
EOF
# Configs: config_fuzz's first byte picks the name ('1': /etc/fuzz/config.yaml, '0':
# config.yaml).
for f in "$top"/examples/plugins/vendor/config.yaml "$top"/plugins/*/config.yaml \
         "$top"/t/fuzz/seeds/config/*.yaml; do
    [ -f "$f" ] || continue
    base="$(basename "$(dirname "$f")")_$(basename "$f")"
    { printf 1; cat "$f"; } > "corpus_config/$base"
    { printf 0; cat "$f"; } > "corpus_config/0_$base"
done
# IR text. The graphs of the programs are made once (a few minutes under ASan; rm
# corpus_ir.stamp to make them again). Leaks are not looked for there: what is fuzzed is
# the graph text, not the program.
cp "$top"/t/data/ir/*.ir corpus_ir/
if [ ! -f corpus_ir.stamp ]; then
    for f in corpus/*.py; do
        if ASAN_OPTIONS=detect_leaks=0 timeout 20 ./tscript graph "$f" >corpus_ir/graph.tmp \
               2>/dev/null && [ -s corpus_ir/graph.tmp ]; then
            mv corpus_ir/graph.tmp "corpus_ir/$(basename "$f" .py).ir"
        fi
    done
    rm -f corpus_ir/graph.tmp
    touch corpus_ir.stamp
fi

for c in corpus corpus_zip corpus_unpickle corpus_npy corpus_pt corpus_schema corpus_yaml \
         corpus_config corpus_ir; do
    echo "$c: $(ls $c | wc -l) files"
done
echo "built in $1:" $targets
