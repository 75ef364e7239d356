# hostile.py — writes the hostile .pt archives t/hostile.sh feeds to `tscript run`: a model
# archive is untrusted input, and each of these must end in an error message and exit 1,
# never a crash, a read outside the file, a hang or code that is not TorchScript running.
#
#     python3 t/hostile.py DIR      writes DIR/NAME.pt for each case and DIR/cases.txt with
#                                   lines "NAME<TAB>EXPECTED-EXIT<TAB>PHRASE"
#
# Only the standard library is used (the pickles are written opcode by opcode), so the test
# runs where PyTorch is not installed. One archive is valid (ok.pt) and must run: the
# others are it with one thing broken.
import os
import struct
import sys
import zipfile

CODE = """class M(Module):
  __parameters__ = ["w", ]
  __buffers__ = []
  training : bool
  w : Tensor
  def forward(self: __torch__.m.M,
    x: Tensor) -> Tensor:
    w = self.w
    return torch.add(x, w)
"""


# ---- pickles, opcode by opcode --------------------------------------------------------

def s(text):
    b = text.encode()
    return b"X" + struct.pack("<I", len(b)) + b


def i(n):
    if -(1 << 31) <= n < (1 << 31):
        return b"J" + struct.pack("<i", n)
    b = n.to_bytes((n.bit_length() + 8) // 8, "little", signed=True)
    return b"\x8a" + bytes([len(b)]) + b   # LONG1


def glob(module, name):
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n"


def tensor(key="0", numel=2, offset=0, size=(2,), stride=(1,), storage="FloatStorage"):
    pid = b"(" + s("storage") + glob("torch", storage) + s(key) + s("cpu") + i(numel) + b"tQ"
    dims = b"(" + b"".join(i(n) for n in size) + b"t"
    strides = b"(" + b"".join(i(n) for n in stride) + b"t"
    return (glob("torch._utils", "_rebuild_tensor_v2") + b"(" + pid + i(offset) + dims +
            strides + b"\x89" + glob("collections", "OrderedDict") + b")R" + b"tR")


def module(attrs, cls=("__torch__.m", "M")):
    body = b"".join(s(k) + v for k, v in attrs)
    return b"\x80\x02" + glob(*cls) + b")\x81}(" + body + b"ub."


GOOD_ATTRS = [("training", b"\x89"), ("w", tensor())]
GOOD_DATA = struct.pack("<2f", 1.5, -2.0)


def archive(path, code=CODE, data_pkl=None, storages=None, version=b"3\n",
            constants=b"\x80\x02).", extra=()):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("m/version", version)
        z.writestr("m/code/__torch__/m.py", code)
        z.writestr("m/data.pkl", data_pkl if data_pkl is not None else module(GOOD_ATTRS))
        z.writestr("m/constants.pkl", constants)
        for k, v in (storages if storages is not None else {"0": GOOD_DATA}).items():
            z.writestr("m/data/" + k, v)
        for name, data in extra:
            z.writestr(name, data)


def patch_central(path, entry, field_offset, fmt, value):
    """Rewrites one field of entry's central directory record (a lie about the entry)."""
    with open(path, "rb") as f:
        raw = bytearray(f.read())
    pos = raw.rfind(b"PK\x01\x02" + b"", 0)
    while pos >= 0:
        n = struct.unpack_from("<H", raw, pos + 28)[0]
        if raw[pos + 46:pos + 46 + n].decode() == entry:
            struct.pack_into(fmt, raw, pos + field_offset, value)
            break
        pos = raw.rfind(b"PK\x01\x02", 0, pos)
    with open(path, "wb") as f:
        f.write(raw)


def cases(out):
    rows = []

    def case(name, phrase, status=1, **kw):
        archive(os.path.join(out, name + ".pt"), **kw)
        rows.append((name, status, phrase))

    case("ok", "", status=0)
    # the pickle may not call anything: every global outside the list is refused by name
    case("global_os_system", "Unsupported class os.system", data_pkl=b"\x80\x02" +
         glob("os", "system") + b"(" + s("echo pwned") + b"tR.")
    case("global_builtins_eval", "Unsupported class builtins.eval", data_pkl=b"\x80\x02" +
         glob("builtins", "eval") + b"(" + s("1") + b"tR.")
    case("class_not_in_code", "which the archive's code does not define",
         data_pkl=module(GOOD_ATTRS, ("__torch__.m", "Other")))
    case("class_outside_torch", "Unsupported class",
         data_pkl=module(GOOD_ATTRS, ("subprocess", "Popen")))
    # storages: what a tensor addresses must lie inside its data
    case("offset_past_data", "out of bounds for storage", data_pkl=module([("training", b"\x89"),
                                                  ("w", tensor(offset=1000))]))
    case("size_past_data", "out of bounds for storage", data_pkl=module([("training", b"\x89"),
                                                ("w", tensor(size=(3,)))]))
    case("stride_past_data", "out of bounds for storage", data_pkl=module([("training", b"\x89"),
                                                  ("w", tensor(size=(2,), stride=(5,)))]))
    case("numel_past_entry", "claims", data_pkl=module([("training", b"\x89"),
                                                        ("w", tensor(numel=1 << 40))]))
    case("storage_missing", "does not have", storages={})
    case("negative_size", "negative dimension", data_pkl=module([("training", b"\x89"),
                                               ("w", tensor(size=(-2,)))]))
    # types: what the code declares is what the pickle must give
    case("attr_wrong_type", "expected Tensor", data_pkl=module([("training", b"\x89"),
                                                                ("w", i(3))]))
    case("attr_missing", "never set", data_pkl=module([("training", b"\x89")]))
    case("attr_undeclared", "does not declare", data_pkl=module(GOOD_ATTRS + [("z", i(1))]))
    case("root_not_module", "does not hold a module", data_pkl=b"\x80\x02" + i(7) + b".")
    # pickle structure
    nested = b"\x80\x02" + b"]" * 100000 + b"a" * 99999 + b"."
    case("deep_nesting", "deep", data_pkl=nested)
    case("cycle", "contains itself", data_pkl=b"\x80\x02]q\x00h\x00a.")
    case("unknown_opcode", "opcode", data_pkl=b"\x80\x02\xff.")
    case("stop_empty_stack", "STOP with 0 values", data_pkl=b"\x80\x02.")
    case("truncated_pickle", "past the end", data_pkl=module(GOOD_ATTRS)[:40])
    # the archive's metadata and code
    case("version_too_new", "maximum supported version for reading is 10", version=b"11\n")
    case("version_garbage", "version record is not a number", version=b"three\n")
    case("code_not_torchscript", "code/__torch__/m.py", code=CODE + "  def broken(self:\n")
    case("code_inheritance", "does not support class inheritance",
         code=CODE.replace("class M(Module):", "class M(Base):"))
    case("code_statement", "Unexpected", code="import os\nos.system('x')\n" + CODE)
    rows_zip = []

    # the zip itself
    def zip_case(name, phrase, fn):
        p = os.path.join(out, name + ".pt")
        archive(p)
        fn(p)
        rows_zip.append((name, 1, phrase))

    zip_case("claims_4gb", "claims 4294967280 bytes", lambda p: patch_central(p, "m/data/0", 24, "<I", 0xFFFFFFF0))
    zip_case("compressed_size_lie", "claims", lambda p: patch_central(p, "m/data.pkl", 20, "<I",
                                                                 0x7FFFFFFF))
    zip_case("offset_lie", "outside", lambda p: patch_central(p, "m/data/0", 42, "<I", 0x7FFFFF00))
    zip_case("entries_overlap", "names another entry", lambda p: overlap(p))
    zip_case("truncated", "not a zip archive", lambda p: truncate(p))
    zip_case("not_a_zip", "not a zip archive", lambda p: open(p, "wb").write(b"\x00" * 1024))
    return rows + rows_zip


def overlap(path):
    """Points the central record of data/0 at the local header of data.pkl."""
    with open(path, "rb") as f:
        raw = f.read()
    target = None
    pos = 0
    while True:
        pos = raw.find(b"PK\x03\x04", pos)
        if pos < 0:
            break
        n = struct.unpack_from("<H", raw, pos + 26)[0]
        if raw[pos + 30:pos + 30 + n] == b"m/data.pkl":
            target = pos
        pos += 4
    patch_central(path, "m/data/0", 42, "<I", target)


def truncate(path):
    with open(path, "rb") as f:
        raw = f.read()
    with open(path, "wb") as f:
        f.write(raw[: len(raw) // 2])


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "cases.txt"), "w") as f:
        for name, status, phrase in cases(out):
            f.write("%s\t%d\t%s\n" % (name, status, phrase))


if __name__ == "__main__":
    main()
