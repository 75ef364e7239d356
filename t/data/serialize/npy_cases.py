#!/usr/bin/env python3
"""npy_cases.py DIR [--small] — .npy files made by NumPy for t/npy.t, and DIR/expected.txt:
one line per file, "NAME<TAB>canonical text" of the tensor tscript must read from it (the
text of t/pickle_env.h: T<dtype>(sizes)(strides)<offset>rg0:<hex of each element, in
row-major order, little-endian>). --small makes the few committed to t/data/serialize/npy.

npy_cases.py --canon FILE...  prints that text for each file (files tscript wrote, as
np.load reads them).
"""
import os
import sys

import numpy as np

DTYPES = {  # numpy dtype -> tscript's dtype number (PyTorch's ScalarType)
    "bool": 11, "uint8": 0, "int8": 1, "int16": 2, "int32": 3, "int64": 4,
    "float16": 5, "float32": 6, "float64": 7, "complex64": 9, "complex128": 10,
}


def canon(a):
    little = a.astype(a.dtype.newbyteorder("<"))
    item = a.dtype.itemsize
    if a.flags.f_contiguous and not a.flags.c_contiguous:
        strides = [s // item for s in a.strides]
    else:
        strides, n = [], 1
        for size in reversed(a.shape):
            strides.insert(0, n)
            n *= size
    data = np.ascontiguousarray(little).tobytes().hex() if a.size else ""
    return "T%d(%s)(%s)0rg0:%s" % (DTYPES[a.dtype.name], ",".join(map(str, a.shape)),
                                   ",".join(map(str, strides)), data)


def values(name, shape):
    n = int(np.prod(shape))
    if name == "bool":
        return (np.arange(n) % 3 == 0).reshape(shape)
    base = np.arange(n) * 37 - 11
    if name.startswith("complex"):
        return (base + 1j * (base + 0.5)).astype(name).reshape(shape)
    if name.startswith("float"):
        return (base / 4).astype(name).reshape(shape)
    return base.astype(name).reshape(shape)


def cases(small):
    out = {}
    for name in DTYPES:
        a = values(name, (2, 3))
        out["c_" + name] = a
        if a.dtype.itemsize > 1:
            out["be_" + name] = a.astype(a.dtype.newbyteorder(">"))
        out["f_" + name] = np.asfortranarray(values(name, (3, 2, 2)))
    out["scalar"] = np.array(2.5)
    out["empty"] = np.zeros((0, 3), dtype=np.float32)
    out["vec"] = np.arange(5, dtype=np.int64)
    out["big_endian_fortran"] = np.asfortranarray(values("float64", (2, 3))).astype(">f8")
    if small:
        keep = ["c_float32", "be_int64", "f_float64", "c_bool", "be_complex128", "scalar",
                "empty", "big_endian_fortran"]
        out = {k: out[k] for k in keep}
    return out


def main():
    if sys.argv[1] == "--canon":
        for path in sys.argv[2:]:
            print(canon(np.load(path)))
        return
    out, small = sys.argv[1], "--small" in sys.argv
    lines = []
    for name, a in cases(small).items():
        np.save(os.path.join(out, name + ".npy"), a)
        lines.append(name + ".npy\t" + canon(a))
    for version in ((2, 0), (3, 0)):
        a = values("int32", (4,))
        name = "v%d.npy" % version[0]
        with open(os.path.join(out, name), "wb") as f:
            np.lib.format.write_array(f, a, version=version)
        lines.append(name + "\t" + canon(a))
    with open(os.path.join(out, "expected.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
