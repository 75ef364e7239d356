# dnnl/setup.sh — what t/dnnl.sh and t/dnnl_bf16.sh start with (sourced, $srcdir set): the
# skip where aten-dnnl is not built, $tscript, $tmp (removed at exit) with dnnl.yaml (the
# plugin on) and cpu.yaml (off), t/fuser/tap.sh's check, a skip, and $py, $torch: the
# python3 that has PyTorch, and whether it does.
builddir=${TS_BUILDDIR:-$(pwd)}
tscript=$builddir/tscript
if [ ! -f "$builddir/plugins/aten-dnnl/.libs/aten-dnnl.so" ]; then
    echo "1..0 # SKIP aten-dnnl is not built (configure found no oneDNN)"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dnnl.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
printf 'plugins: [prim, aten-cpu, aten-dnnl]\n' >"$tmp/dnnl.yaml"
printf 'plugins: [prim, aten-cpu]\n' >"$tmp/cpu.yaml"
. "$srcdir/t/fuser/tap.sh"
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
py=/usr/bin/python3
[ -x "$py" ] || py=python3
torch=no
"$py" -c 'import torch' >/dev/null 2>&1 && torch=yes
