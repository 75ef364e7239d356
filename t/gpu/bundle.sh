#!/bin/sh
# t/gpu/bundle.sh [DIR] — packs a tree built here with CUDA for a machine with a GPU, where
# t/gpu/check.sh unpacks and runs it: tscript, libtscript, every plugin (with its .la, which
# the tests look for), bench/tsbench, and the system libraries they load that such a
# machine's image may lack (libyaml; OpenBLAS with libgfortran and libquadmath, which
# aten-cpu opens for the cpu side of the comparisons), the real models of t/gpu/models.sh
# (t/gpu/make_models.py, where /usr/bin/python3 has PyTorch 1.13 and torchvision), as
# DIR/bundle.tar.xz (default DIR .gpu; list it in .git/info/exclude). The device tool
# carries at most 64 MiB: the archive is about 30.
set -eu
out=${1:-.gpu}
if [ ! -f plugins/aten-cuda/aten-cuda.la ] || [ ! -x tscript ]; then
    echo "t/gpu/bundle.sh: run from the top of a tree built with CUDA (configure found it)" >&2
    exit 2
fi
make bench/tsbench >/dev/null
stage=$(mktemp -d "${TMPDIR:-/tmp}/gpubundle.XXXXXX")
trap 'rm -rf "$stage"' EXIT
b=$stage/build
mkdir -p "$b/.libs" "$b/lib" "$b/bench"
cp -P .libs/libtscript.so* "$b/.libs/"
cp tscript "$b/"
cp bench/tsbench "$b/bench/"
if [ -x t/cuda_graph.t ]; then
    mkdir -p "$b/t"
    cp t/cuda_graph.t "$b/t/"
fi
for dir in plugins/*/; do
    name=$(basename "$dir")
    if [ -f "$dir.libs/$name.so" ]; then
        mkdir -p "$b/plugins/$name"
        cp "$dir.libs/$name.so" "$dir$name.la" "$b/plugins/$name/"
    fi
done
# the probe of what launches and cuBLAS cost there (bench/cuda_costs.cu), where nvcc is
nvcc=$(sed -n 's/^NVCC = //p' Makefile)
if [ -n "$nvcc" ] && [ -x "$nvcc" ]; then
    "$nvcc" -O2 -arch=sm_90 -o "$b/bench/cuda_costs" bench/cuda_costs.cu -lcublas ||
        echo "t/gpu/bundle.sh: bench/cuda_costs.cu did not build; the bundle goes without it" >&2
fi
# the real models t/gpu/models.sh runs (PyTorch 1.13 saves them: the GPU machine's is newer)
if /usr/bin/python3 -c 'import torchvision' 2>/dev/null; then
    /usr/bin/python3 t/gpu/make_models.py "$b/models" 2>/dev/null ||
        echo "t/gpu/bundle.sh: t/gpu/make_models.py failed; the bundle goes without models" >&2
fi
for lib in libyaml-0.so.2 libopenblas.so.0 libgfortran.so.5 libquadmath.so.0; do
    path=$(ldconfig -p | awk -v l="$lib" '$1 == l { print $NF; exit }')
    [ -n "$path" ] && cp -L "$path" "$b/lib/"
done
mkdir -p "$out"
tar -C "$stage" -cJf "$out/bundle.tar.xz" build
ls -l "$out/bundle.tar.xz"
