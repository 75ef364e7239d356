# unittest_verdicts.py FILE.py — the verdict PyTorch 1.13 gives each test_* function of a
# `tscript test` file, one "NAME VERDICT" line each (pass, fail, xfail, xpass, skip): the
# function scripted with torch.jit.script and called, under the declarations of Python's
# unittest (skip, expectedFailure). t/cli_test.sh compares them with tscript's TAP.
import inspect
import runpy
import sys
import warnings

import torch

warnings.simplefilter("ignore")
for name, fn in runpy.run_path(sys.argv[1]).items():
    if not name.startswith("test_") or not callable(fn):
        continue
    if getattr(fn, "__unittest_skip__", False):
        print(name, "skip")
        continue
    try:
        passed = torch.jit.script(inspect.unwrap(fn))() is not False
    except Exception:
        passed = False
    if getattr(fn, "__unittest_expecting_failure__", False):
        print(name, "xpass" if passed else "xfail")
    else:
        print(name, "pass" if passed else "fail")
