#!/bin/sh
# nvcc-lt.sh NVCC ARGS... — runs nvcc as the C compiler of libtool's compile mode
# (aten-cuda.mk). libtool adds the options it gives a C compiler for a shared object
# (-fPIC, -DPIC); nvcc takes the host compiler's own options only through -Xcompiler, so
# those (-f*, -pthread) are passed that way and everything else as it is.
[ $# -ge 1 ] || { echo "usage: nvcc-lt.sh NVCC ARGS..." >&2; exit 2; }
nvcc=$1
shift
n=$#
while [ "$n" -gt 0 ]; do
    a=$1
    shift
    case $a in
        -f* | -pthread) set -- "$@" -Xcompiler "$a" ;;
        *) set -- "$@" "$a" ;;
    esac
    n=$((n - 1))
done
exec "$nvcc" "$@"
