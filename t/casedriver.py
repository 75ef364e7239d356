# casedriver.py — runs a TorchScript case file under PyTorch (the reference), as
#     /usr/bin/python3 t/NAME_cases.py
# Each test_* function is scripted and called and must not raise; each err_* function must
# raise an error containing the text of its `# raises: ...` line. Under tscript the same
# files run through `tscript test` and t/cases.sh. Exit status 1 if anything failed.
import inspect
import sys
import warnings

import torch


def run(names):
    warnings.simplefilter("ignore")
    failed = 0
    for name, fn in list(names.items()):
        if name.startswith("test_"):
            try:
                torch.jit.script(fn)()
                print("ok", name)
            except Exception as e:
                failed += 1
                print("not ok", name, e)
        elif name.startswith("err_"):
            want = inspect.getsource(fn).split("# raises: ")[1].split("\n")[0]
            try:
                torch.jit.script(fn)()
                failed += 1
                print("not ok", name, "did not raise")
            except Exception as e:
                good = want in str(e)
                failed += 0 if good else 1
                print("ok" if good else "not ok", name, "" if good else str(e))
    sys.exit(1 if failed else 0)
