#!/usr/bin/env python3
"""pyprint_torch.py — PyTorch 1.13 reads and runs the code tscript's python printer writes.

usage: /usr/bin/python3 pyprint_torch.py BUILDDIR SRCDIR

1. The printed code. For every function case of the conformance suite that tscript passes
   (t/conformance.pass) and every program of t/data/lang and examples/ with an .out,
   `t/pyprint.t --dump` prints its main and everything main uses. This script packs the
   printed files into an archive by hand, the way torch.jit.save packs a scripted function:
   the code files, with the class PlaceholderModule(Module) whose forward calls main added to
   code/__torch__.py, a data.pkl holding one PlaceholderModule, constants.pkl with the
   constants the code names, and the archive version the printer asked for. torch.jit.load
   must load it, and forward() must print what PyTorch printed for the program (the .out,
   compared as t/outcmp.py compares: numbers to a relative 1e-4) or fail with the .err
   phrase.
2. The same programs saved whole by tscript (`t/pyprint.t --save`, ts_save_function).
3. Every module archive of the suite loaded and saved again by tscript
   (`t/pyprint_archive.t --save`, ts_save_module): its main in PyTorch prints what PyTorch
   prints for the original after PyTorch's own load and save (the same number of
   __setstate__ runs), or fails as that does.
4. Modules of this file (RESAVED) scripted and saved by PyTorch, saved again by `tscript
   save`: forward gives PyTorch's result on the archive tscript wrote.
Prints TAP.
"""
import contextlib
import io
import os
import pickle
import subprocess
import sys
import tempfile
import zipfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from outcmp import first_difference  # noqa: E402

PLACEHOLDER = """class PlaceholderModule(Module):
  __parameters__ = []
  __buffers__ = []
  training : bool
  def forward(self: __torch__.PlaceholderModule) -> NoneType:
    return __torch__.main()
"""

# data.pkl of torch.jit.save(torch.jit.script(fn)): a PlaceholderModule in training mode,
# as PyTorch 1.13 pickles it (protocol 2: GLOBAL, NEWOBJ, BUILD of {"training": True})
DATA_PKL = (b"\x80\x02c__torch__\nPlaceholderModule\nq\x00)\x81}(X\x08\x00\x00\x00"
            b"trainingq\x01\x88ubq\x02.")


def programs(srcdir):
    cases = os.path.join(srcdir, "..", "shared", "conformance", "cases")
    passing = os.path.join(srcdir, "t", "conformance.pass")
    if os.path.isdir(cases) and os.path.exists(passing):
        for line in open(passing):
            name = line.split("#")[0].strip()
            if name and not name.startswith("modules/"):
                yield name, os.path.join(cases, name + ".py")
    for d in ("t/data/lang", "examples"):
        for f in sorted(os.listdir(os.path.join(srcdir, d))):
            path = os.path.join(srcdir, d, f)
            if f.endswith(".py") and os.path.exists(path[:-3] + ".out"):
                yield d + "/" + f[:-3], path


def archive(printed):
    """The bytes of a torch.jit.save archive holding the printed files of one program."""
    consts = []
    for line in open(os.path.join(printed, "constants")).read().splitlines():
        kind, _, data = line.partition(" ")
        if kind != "str":
            return None
        consts.append(bytes.fromhex(data).decode())
    version = int(open(os.path.join(printed, "version")).read())
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("archive/data.pkl", DATA_PKL)
        z.writestr("archive/constants.pkl", pickle.dumps(tuple(consts), protocol=2))
        z.writestr("archive/version" if version < 6 else "archive/.data/version",
                   "%d\n" % version)
        code = os.path.join(printed, "code")
        for root, _, files in os.walk(code):
            for f in files:
                path = os.path.join(root, f)
                text = open(path).read()
                rel = os.path.relpath(path, printed)
                if rel == os.path.join("code", "__torch__.py"):
                    text += PLACEHOLDER
                z.writestr("archive/" + rel, text)
    return out.getvalue()


def capture(call):
    """What call() prints, as the suite's .out files were captured (in text mode, "\\r" read
    as a line end), and the exception it raised, as "Type: message" (or None)."""
    out = io.StringIO()
    err = None
    with contextlib.redirect_stdout(out):
        try:
            call()
        except Exception as e:  # the program's own error, as reference.py reports it
            err = "%s: %s" % (type(e).__name__, e)
    return out.getvalue().replace("\r\n", "\n").replace("\r", "\n"), err


def run(data):
    """What forward() of the archive prints, and its error."""
    return capture(lambda: torch.jit.load(io.BytesIO(data))())


def expected(path):
    """The .out of a program and the phrase of its .err (or None)."""
    err = path[:-3] + ".err"
    return (open(path[:-3] + ".out").read(),
            open(err).read().strip() if os.path.exists(err) else None)


def judge(want, phrase, got, err):
    """None when the run matches, else what differs."""
    if phrase is None and err is not None:
        return "it failed: " + (err.splitlines()[0] if err.strip() else "")
    if phrase is not None and (err is None or phrase not in err):
        return "expected an error with %r, got %r" % (phrase, err)
    return first_difference(want, got)


# Modules whose archives tscript must save again: interfaces (a class interface naming a
# parameter's type only, a module interface attribute, an interface-typed local), script
# classes built by no call before the save.
RESAVED = {
    "interfaces": """
import torch
from torch import nn

@torch.jit.interface
class Scorer(object):
    def score(self, x: torch.Tensor, k: int) -> torch.Tensor:
        pass

@torch.jit.script
class Square(object):
    def __init__(self):
        self.scale = 2.0
    def score(self, x: torch.Tensor, k: int) -> torch.Tensor:
        return x * x * self.scale + k

@torch.jit.interface
class Step(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        pass

class AddOne(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + 1

class Model(nn.Module):
    step: Step
    def __init__(self):
        super().__init__()
        self.step = AddOne()
        self.steps = nn.ModuleDict({"a": AddOne(), "b": AddOne()})
    def use(self, s: Scorer, x: torch.Tensor) -> torch.Tensor:
        return s.score(x, 3)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        m: Step = self.steps["a"]
        return self.use(Square(), x) + m.forward(x) + self.step.forward(x)
""",
}


def resave_tests(builddir, tmp, report_one):
    """Part 4: each RESAVED module through torch.jit.save, `tscript save`, torch.jit.load."""
    import importlib.util
    tscript = os.path.join(builddir, "tscript")
    x = torch.arange(4.0)
    for name, source in RESAVED.items():
        src = os.path.join(tmp, "resaved_%s.py" % name)
        with open(src, "w") as f:
            f.write(source)
        spec = importlib.util.spec_from_file_location("resaved_" + name, src)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod
        spec.loader.exec_module(mod)
        first, second = src[:-3] + ".pt", src[:-3] + ".tscript.pt"
        torch.jit.save(torch.jit.script(mod.Model()), first)
        want = torch.jit.load(first)(x)
        p = subprocess.run([tscript, "save", "-o", second, first], capture_output=True,
                           text=True)
        what = "%s: tscript saves it again and PyTorch runs that" % name
        if p.returncode != 0:
            report_one(False, what, p.stderr)
            continue
        got = torch.jit.load(second)(x)
        report_one(torch.allclose(want, got), what, "want %s, got %s" % (want, got))


def resaved(path):
    """The archive PyTorch writes when it loads path and saves it again."""
    out = io.BytesIO()
    torch.jit.save(torch.jit.load(path), out)
    return out.getvalue()


def run_main(data):
    """What main() of a saved module prints, and the last line of its error (or None)."""
    got, err = capture(lambda: torch.jit.load(io.BytesIO(data)).main())
    return got, err.strip().splitlines()[-1] if err else None


def known_failures(srcdir):
    """t/pyprint.todo: TEST<tab>REASON lines (shared with t/pyprint.t)."""
    todo = {}
    for line in open(os.path.join(srcdir, "t", "pyprint.todo")):
        if not line.startswith("#") and "\t" in line:
            test, reason = line.rstrip("\n").split("\t", 1)
            todo[test] = reason
    return todo


def main():
    builddir, srcdir = sys.argv[1], sys.argv[2]
    pyprint = os.path.join(builddir, "t", "pyprint.t")
    progs = list(programs(srcdir))
    todo = known_failures(srcdir)
    n = failed = 0

    def report(passed, what, problem=None):
        """ok/not ok; a test listed in t/pyprint.todo is a TODO, and fails the run if it passes."""
        nonlocal failed
        reason = todo.get(what)
        print("%sok %d - %s%s" % ("" if passed else "not ", n, what,
                                  " # TODO " + reason if reason else ""))
        if problem and not passed:
            print("# " + problem.replace("\n", "\n# "))
        if (not passed and not reason) or (passed and reason):
            failed += 1
            if passed:
                print("# it passes: remove it from t/pyprint.todo")

    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([pyprint, "--dump", tmp] + [p for _, p in progs], check=True)
        for i, (name, path) in enumerate(progs):
            n += 1
            printed = os.path.join(tmp, str(i))
            if os.path.exists(os.path.join(printed, "uncompiled")):
                print("ok %d - %s # SKIP tscript does not compile it" % (n, name))
                continue
            if os.path.exists(os.path.join(printed, "error")):
                report(False, "%s: tscript prints it" % name,
                       open(os.path.join(printed, "error")).read())
                continue
            data = archive(printed)
            if data is None:
                print("ok %d - %s # SKIP its constants are not strings" % (n, name))
                continue
            got, err = run(data)
            want, phrase = expected(path)
            report(not judge(want, phrase, got, err),
                   "%s: PyTorch loads and runs the printed code" % name,
                   judge(want, phrase, got, err))
        subprocess.run([pyprint, "--save", tmp] + [p for _, p in progs], check=False)
        for i, (name, path) in enumerate(progs):
            if os.path.exists(os.path.join(tmp, "%d.uncompiled" % i)):
                continue
            n += 1
            saved = os.path.join(tmp, "%d.pt" % i)
            what = "%s: PyTorch loads and runs the saved function" % name
            if not os.path.exists(saved):
                report(False, what, open(os.path.join(tmp, "%d.error" % i)).read())
                continue
            got, err = run(open(saved, "rb").read())
            want, phrase = expected(path)
            report(not judge(want, phrase, got, err), what, judge(want, phrase, got, err))
        saver = os.path.join(builddir, "t", "pyprint_archive.t")
        cases = os.path.join(srcdir, "..", "shared", "conformance", "cases", "modules")
        for f in sorted(os.listdir(cases)) if os.path.isdir(cases) else []:
            if not f.endswith(".pt"):
                continue
            n += 1
            what = "%s: PyTorch loads and runs the saved archive" % f
            saved = os.path.join(tmp, f)
            p = subprocess.run([saver, "--save", os.path.join(cases, f), saved],
                               capture_output=True, text=True)
            if p.returncode != 0:
                report(False, what, p.stderr)
                continue
            want, want_err = run_main(resaved(os.path.join(cases, f)))
            got, err = run_main(open(saved, "rb").read())
            problem = first_difference(want, got)
            if (want_err is None) != (err is None) or (err and err != want_err):
                problem = "PyTorch's own save: %r, tscript's: %r" % (want_err, err)
            report(not problem, what, problem)

        def report_one(passed, what, problem):
            nonlocal n
            n += 1
            report(passed, what, problem)
        resave_tests(builddir, tmp, report_one)
    print("1..%d" % n)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
