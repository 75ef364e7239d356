#!/usr/bin/env python3
"""canon.py ARCHIVE [ENTRY] — the canonical text of a pickle in a PyTorch archive.
   canon.py --pickle FILE   — the same for a bare pickle (one without tensors).

t/unpickle.t prints what tscript's unpickler builds in this same text and compares. This
side uses Python's own pickle machine (the pure-Python pickle._Unpickler) with stand-ins
for the globals PyTorch's archives name, and needs nothing but the standard library, so it
checks tscript against an independent reading of the same bytes. ENTRY defaults to
PREFIX/data.pkl.

The text, recursively:
    None True False 5 f:1.5 c:(1,2) 'str' dev:cpu
    (a,b,)  [ELEM|a,b,]  {KEY,VALUE|k:v,}     ELEM/KEY/VALUE: annotations, "Any" untyped
    T<dtype>(sizes)(strides)<offset>rg<0|1>:<hex of each element, row-major>
    O(__torch__.Name|state)   E(__torch__.Name|value)
Floats are %.17g; str bytes outside printable ASCII (and ' and \\) are \\xNN of UTF-8.
"""
import io
import pickle
import struct
import sys
import zipfile

DTYPES = {  # storage class -> (ScalarType number, element size)
    "ByteStorage": (0, 1), "CharStorage": (1, 1), "ShortStorage": (2, 2),
    "IntStorage": (3, 4), "LongStorage": (4, 8), "HalfStorage": (5, 2),
    "FloatStorage": (6, 4), "DoubleStorage": (7, 8), "ComplexHalfStorage": (8, 4),
    "ComplexFloatStorage": (9, 8), "ComplexDoubleStorage": (10, 16),
    "BoolStorage": (11, 1), "BFloat16Storage": (15, 2), "UntypedStorage": (0, 1),
}


class StorageClass:
    def __init__(self, name):
        self.dtype, self.itemsize = DTYPES[name]


class Storage:
    def __init__(self, cls, data, numel):
        assert len(data) == numel * cls.itemsize, "storage size"
        self.cls, self.data = cls, data


class Tensor:
    def __init__(self, storage, offset, size, stride, rg):
        self.storage, self.offset, self.size, self.stride = storage, offset, size, stride
        self.rg = rg


class TypedList(list):
    ann = "Any"


class TypedDict(dict):
    ann = "Any,Any"


class Device(str):
    pass


class Obj:
    def __init__(self, name):
        self.name, self.state = name, None


class Enum:
    def __init__(self, name, value):
        self.name, self.value = name, value


def split_args(ann):
    """'str, List[int]' -> ['str', 'List[int]'] at top-level commas."""
    out, depth, cur = [], 0, ""
    for ch in ann:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch == "["
        depth -= ch == "]"
        cur += ch
    out.append(cur.strip())
    return out


def typed(value, ann):
    if isinstance(value, list):
        value = TypedList(value)
        assert ann.startswith("List["), ann
        value.ann = ann[5:-1]
    else:
        value = TypedDict(value)
        assert ann.startswith("Dict["), ann
        value.ann = ",".join(split_args(ann[5:-1]))
    return value


def listof(elem):
    def build(data):
        data = TypedList(data)
        data.ann = elem
        return data
    return build


def rebuild_tensor_v2(base, offset, size, stride, rg, hooks, metadata=None):
    return Tensor(base, offset, tuple(size), tuple(stride), rg)


def rebuild_parameter(t, rg, hooks):
    return Tensor(t.storage, t.offset, t.size, t.stride, rg)


class OrderedDict(dict):
    pass


GLOBALS = {
    ("torch._utils", "_rebuild_tensor_v2"): rebuild_tensor_v2,
    ("torch._utils", "_rebuild_parameter"): rebuild_parameter,
    ("collections", "OrderedDict"): OrderedDict,
    ("torch.jit._pickle", "build_intlist"): listof("int"),
    ("torch.jit._pickle", "build_doublelist"): listof("float"),
    ("torch.jit._pickle", "build_boollist"): listof("bool"),
    ("torch.jit._pickle", "build_tensorlist"): listof("Tensor"),
    ("torch.jit._pickle", "restore_type_tag"): typed,
    ("builtins", "complex"): complex,
    ("__builtin__", "complex"): complex,
    ("torch", "device"): lambda kind, index=None: Device(kind if index is None else f"{kind}:{index}"),
    ("torch", "Size"): tuple,
}


class Unpickler(pickle._Unpickler):
    def __init__(self, data, archive, prefix):
        super().__init__(io.BytesIO(data))
        self.archive, self.prefix = archive, prefix
        self.storages = {}
        self.dispatch = dict(self.dispatch)
        self.dispatch[pickle.REDUCE[0]] = Unpickler.load_reduce_enum

    def load_reduce_enum(self):
        # PyTorch pickles an enum value as REDUCE of its class with the bare value
        args = self.stack.pop()
        func = self.stack[-1]
        if isinstance(func, type) and issubclass(func, Obj):
            self.stack[-1] = Enum(func.qualname, args)
        else:
            self.stack[-1] = func(*args)

    def find_class(self, module, name):
        if (module, name) in GLOBALS:
            return GLOBALS[(module, name)]
        if module in ("torch", "torch.storage") and name in DTYPES:
            return StorageClass(name)
        if module == "__torch__" or module.startswith("__torch__."):
            qualname = module + "." + name

            class Cls(Obj):
                def __new__(cls):
                    return Obj(qualname)
            Cls.qualname = qualname
            return Cls
        raise pickle.UnpicklingError(f"Unsupported class {module}.{name}")

    def persistent_load(self, pid):
        kind, cls, key, location, numel = pid
        assert kind == "storage"
        if key not in self.storages:
            data = self.archive.read(self.prefix + "data/" + key) if numel else b""
            self.storages[key] = Storage(cls, data, numel)
        return self.storages[key]


def build_state(obj, state):
    obj.state = state


Obj.__setstate__ = build_state


def quote(s):
    out = ""
    for b in s.encode("utf-8"):
        c = chr(b)
        out += c if 0x20 <= b < 0x7f and c not in "'\\" else "\\x%02x" % b
    return "'" + out + "'"


def elements(t):
    size = t.storage.cls.itemsize
    out = []

    def walk(dim, at):
        if dim == len(t.size):
            out.append(t.storage.data[at * size:(at + 1) * size].hex())
            return
        for i in range(t.size[dim]):
            walk(dim + 1, at + i * t.stride[dim])
    walk(0, t.offset)
    return "".join(out)


def canon(v):
    if v is None or v is True or v is False:
        return str(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "f:%.17g" % v
    if isinstance(v, complex):
        return "c:(%.17g,%.17g)" % (v.real, v.imag)
    if isinstance(v, Device):
        return "dev:" + str(v)
    if isinstance(v, str):
        return quote(v)
    if isinstance(v, tuple):
        return "(" + "".join(canon(x) + "," for x in v) + ")"
    if isinstance(v, list):
        ann = v.ann if isinstance(v, TypedList) else "Any"
        return "[" + ann + "|" + "".join(canon(x) + "," for x in v) + "]"
    if isinstance(v, dict):
        ann = v.ann if isinstance(v, TypedDict) else "Any,Any"
        return "{" + ann + "|" + "".join(canon(k) + ":" + canon(x) + "," for k, x in v.items()) + "}"
    if isinstance(v, Tensor):
        return "T%d(%s)(%s)%drg%d:%s" % (
            v.storage.cls.dtype, ",".join(map(str, v.size)), ",".join(map(str, v.stride)),
            v.offset, 1 if v.rg else 0, elements(v))
    if isinstance(v, Storage):
        t = Tensor(v, 0, (len(v.data) // v.cls.itemsize,), (1,), False)
        return canon(t)
    if isinstance(v, Obj):
        return "O(" + v.name + "|" + canon(v.state) + ")"
    if isinstance(v, Enum):
        return "E(" + v.name + "|" + canon(v.value) + ")"
    raise TypeError(f"no canonical form for {type(v)}")


def main():
    if sys.argv[1] == "--pickle":
        with open(sys.argv[2], "rb") as f:
            print(canon(Unpickler(f.read(), None, "").load()))
        return
    archive = zipfile.ZipFile(sys.argv[1])
    names = archive.namelist()
    prefix = names[0][:names[0].index("/") + 1]
    entry = prefix + (sys.argv[2] if len(sys.argv) > 2 else "data.pkl")
    value = Unpickler(archive.read(entry), archive, prefix).load()
    print(canon(value))


if __name__ == "__main__":
    main()
