# check.py — module cases (t/modules_sweep/NAME.py: a `class Model(nn.Module)` with an
# exported `main(self)`, as the conformance suite's module cases are) saved by PyTorch 1.13
# at test time and run by tscript: each is scripted and saved with torch.jit.save, its main()
# run by PyTorch after torch.jit.load and by `tscript run NAME.pt -f main`, and the two
# printed outputs compared as t/outcmp.py compares them, with the exit statuses. A case
# whose first line is `# raises: PHRASE` must fail in both, tscript's error holding PHRASE.
# A case may define `build()`, which returns the module to save (traced, frozen, optimized
# for inference) in place of torch.jit.script(Model()); one with neither is a program, a
# function case: PyTorch imports it (compiling what @torch.jit.script decorates) and runs
# torch.jit.script(main)(), tscript runs `tscript run NAME.py`. --dir DIR runs the cases of
# another folder (t/modules_sweep5). Prints TAP.
#
#     /usr/bin/python3 t/modules_sweep/check.py TSCRIPT [--dir DIR] [NAME...]
import glob
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from outcmp import first_difference  # noqa: E402

# Runs in a child python: what TorchScript prints goes to the process's stdout.
SAVE_AND_RUN = r"""
import importlib.util, os, sys, warnings, torch
warnings.simplefilter("ignore")
case, saved = sys.argv[1], sys.argv[2]
spec = importlib.util.spec_from_file_location("case", case)
mod = importlib.util.module_from_spec(spec)
sys.modules["case"] = mod
try:
    spec.loader.exec_module(mod)    # a program's @torch.jit.script compiles here
    torch.manual_seed(0)
    if hasattr(mod, "Model") or hasattr(mod, "build"):
        (mod.build() if hasattr(mod, "build") else torch.jit.script(mod.Model())).save(saved)
        sys.stdout.flush()
        torch.jit.load(saved).main()
    else:
        torch.jit.script(mod.main)()
except Exception as e:
    sys.stdout.flush()
    print(type(e).__name__ + ": " + str(e), file=sys.stderr)
    sys.exit(1)
"""


def check(tscript, case, tmp):
    name = os.path.basename(case)[:-3]
    saved = os.path.join(tmp, name + ".pt")
    with open(case) as f:
        text = f.read()
    first = text.split("\n", 1)[0]
    phrase = first.split("# raises: ", 1)[1].strip() if first.startswith("# raises: ") else None
    module = "\nclass Model(" in text or "\ndef build(" in text
    ref = subprocess.run([sys.executable, "-c", SAVE_AND_RUN, case, saved],
                         capture_output=True, text=True, timeout=300)
    if module and not os.path.exists(saved):
        return "PyTorch could not save it: " + ref.stderr.strip()[-400:]
    run = [tscript, "run", saved, "-f", "main"] if module else [tscript, "run", case]
    got = subprocess.run(run, capture_output=True, text=True, timeout=300, errors="replace")
    if (ref.returncode == 0) != (phrase is None):
        return "PyTorch exited %d: %s" % (ref.returncode, ref.stderr.strip()[-400:])
    if got.returncode != ref.returncode:
        return "tscript exited %d, PyTorch %d: %s" % (got.returncode, ref.returncode,
                                                      got.stderr.strip()[-400:])
    if phrase is not None and phrase not in got.stderr:
        return "tscript's error lacks %r: %s" % (phrase, got.stderr.strip()[-400:])
    return first_difference(ref.stdout, got.stdout)


def main():
    tscript = os.path.abspath(sys.argv[1])
    names = sys.argv[2:]
    folder = HERE
    if names[:1] == ["--dir"] and len(names) > 1:
        folder, names = names[1], names[2:]
    cases = sorted(glob.glob(os.path.join(folder, "*.py")))
    cases = [c for c in cases if os.path.basename(c) != "check.py" and
             (not names or os.path.basename(c)[:-3] in names)]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, case in enumerate(cases, 1):
            name = os.path.basename(case)[:-3]
            why = check(tscript, case, tmp)
            if why:
                failed += 1
                print("not ok %d - %s" % (i, name))
                print("\n".join("# " + l for l in why.splitlines()))
            else:
                print("ok %d - %s" % (i, name))
    print("1..%d" % len(cases))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
