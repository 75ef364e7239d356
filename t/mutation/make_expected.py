#!/usr/bin/python3
# make_expected.py — writes NAME.out for each t/mutation/NAME.py: what PyTorch 1.13 prints
# when it scripts main() (torch.jit.script, so PyTorch's own optimizer runs) and calls it.
#
#     /usr/bin/python3 t/mutation/make_expected.py [NAME.py ...]   (default: every program)
#
# Each program runs in a fresh interpreter so that one's output never mixes with another's.
import glob
import os
import subprocess
import sys

# A program that calls an operator PyTorch lacks (a test plugin's) names a stand-in that
# computes the same: "# PYTORCH-STAND-IN: torch.ops.mut.scale_ => torch.ops.aten.mul_".
RUN = """
import importlib.util, os, re, sys, tempfile, torch
src = open(sys.argv[1]).read()
for old, new in re.findall(r"# PYTORCH-STAND-IN: (\\S+) => (\\S+)", src):
    src = src.replace(old + "(", new + "(")
tmp = tempfile.mkdtemp()
path = os.path.join(tmp, os.path.basename(sys.argv[1]))
with open(path, "w") as f:
    f.write(src)
spec = importlib.util.spec_from_file_location("case", path)
mod = importlib.util.module_from_spec(spec)
sys.modules["case"] = mod
spec.loader.exec_module(mod)
torch.jit.script(mod.main)()
"""


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    paths = sys.argv[1:] or sorted(glob.glob(os.path.join(here, "*.py")))
    for path in paths:
        if os.path.basename(path) == os.path.basename(__file__):
            continue
        r = subprocess.run([sys.executable, "-c", RUN, path], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("%s: PyTorch failed:\n%s" % (path, r.stderr))
        with open(path[:-3] + ".out", "w") as f:
            f.write(r.stdout)
        print("wrote", path[:-3] + ".out")


if __name__ == "__main__":
    main()
