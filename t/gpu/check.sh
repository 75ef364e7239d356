#!/bin/sh
# t/gpu/check.sh — the CUDA tests and the CUDA benchmarks, on a machine with an NVIDIA GPU,
# from the top of the source tree; prints TAP (one plan per test script) and then the
# benchmark table of bench/gpu.py (PyTorch's figures beside tscript's). Exit 1 if a test or
# a benchmark failed. About two minutes on an H100.
#
# bench/cuda_costs (built by t/gpu/bundle.sh where nvcc is) prints first what a bare launch
# and cuBLAS's products of the LSTM rows cost on the machine, for reading the table.
#
# The tree is either built in place, or carries .gpu/bundle.tar.xz from t/gpu/bundle.sh
# (what a session lent a GPU machine does: build here, bundle, carry .gpu, run this there).
# The build tree's absolute paths do not hold there, so plugins and schemas are found
# through TSCRIPT_PLUGIN_PATH and TSCRIPT_SCHEMA_PATH, libraries through LD_LIBRARY_PATH.
top=$(pwd)
if [ -f .gpu/bundle.tar.xz ]; then
    rm -rf .gpu/build
    tar -C .gpu -xJf .gpu/bundle.tar.xz || exit 2
    build=$top/.gpu/build
else
    build=$top
fi
plugin_path=
for dir in "$build"/plugins/*/; do
    [ -d "$dir.libs" ] && dir=$dir.libs
    plugin_path=$plugin_path${plugin_path:+:}${dir%/}
done
TS_SRCDIR=$top
TS_BUILDDIR=$build
LD_LIBRARY_PATH=$build/.libs:$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
TSCRIPT_PLUGIN_PATH=$plugin_path
TSCRIPT_SCHEMA_PATH=$top/schemas
export TS_SRCDIR TS_BUILDDIR LD_LIBRARY_PATH TSCRIPT_PLUGIN_PATH TSCRIPT_SCHEMA_PATH
nvidia-smi -L 2>/dev/null | sed 's/^/# /'
status=0
for t in t/aten_cuda.sh t/gpu/fuser_cuda.sh t/gpu/capture.sh t/gpu/models.sh; do
    echo "# $t"
    sh "$top/$t" || status=1
done
if [ -x "$build/t/cuda_graph.t" ]; then
    echo "# t/cuda_graph.t"
    "$build/t/cuda_graph.t" || status=1
fi
tsbench=$build/bench/tsbench
[ -x "$build/bench/.libs/tsbench" ] && tsbench=$build/bench/.libs/tsbench
if [ -x "$build/bench/cuda_costs" ]; then
    echo "# bench/cuda_costs.cu (a bare launch, cuBLAS's products)"
    LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/cuda/lib64 "$build/bench/cuda_costs" 2>&1 |
        sed 's/^/# /'
fi
echo "# bench/gpu.py"
out=$(mktemp "${TMPDIR:-/tmp}/gpubench.XXXXXX")
python3 "$top/bench/gpu.py" --tsbench "$tsbench" >"$out" 2>&1 || status=1
sed 's/^/# /' "$out"
rm -f "$out"
exit $status
