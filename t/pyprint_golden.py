#!/usr/bin/env python3
"""Regenerate t/data/pyprint/NAME.code: what PyTorch 1.13 prints for NAME.py's main.

usage: /usr/bin/python3 t/pyprint_golden.py t/data/pyprint/NAME.py...

The text is the layout t/pyprint.t compares against: `== code/__torch__.py` with
torch.jit.script(main).code, then every other code file torch.jit.save writes for it
(classes, named tuples, other modules), each after its `== path` line.
"""
import importlib.util
import os
import sys
import tempfile
import zipfile

import torch

for path in sys.argv[1:]:
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    fn = torch.jit.script(mod.main)
    out = ["== code/__torch__.py\n", fn.code]
    with tempfile.TemporaryDirectory() as d:
        saved = os.path.join(d, "fn.pt")
        torch.jit.save(fn, saved)
        with zipfile.ZipFile(saved) as z:
            for entry in sorted(z.namelist()):
                code = entry[entry.index("/") + 1:]
                if code.startswith("code/") and code.endswith(".py") and code != "code/__torch__.py":
                    out += ["== " + code + "\n", z.read(entry).decode()]
    with open(os.path.splitext(path)[0] + ".code", "w") as f:
        f.write("".join(out))
    print("wrote", os.path.splitext(path)[0] + ".code")
