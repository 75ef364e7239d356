#!/usr/bin/env python3
"""compare.py — the same TorchScript workloads through PyTorch 1.13 and tscript, in one run.

usage: bench/compare.py [--tscript PATH] [--tsbench PATH] [--runs N]

Each workload in bench/workloads/ is a file with a main(). PyTorch scripts it and times
warm calls in this process (best of N); tscript's bench/tsbench does the same in its own
process. Startup is timed as whole processes: `tscript run hello.py` against
`python3 -c 'import torch; torch.jit.script(main)()'`, with peak memory (max RSS).
Prints one line per workload with both times and the ratio (PyTorch time / tscript time).
This is a benchmark, not a test: it is never part of make check.
"""
import argparse
import os
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.path.join(HERE, "workloads")


def torch_warm(path, runs):
    import torch  # noqa: F401 (imported lazily: startup is measured separately)
    f = torch.jit.script(load(path).main)
    f()
    best = min(timed(f) for _ in range(runs))
    return best, f()


def load(path):
    """Imports a workload as a module (torch.jit.script reads functions' source files)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def timed(f):
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


def tscript_warm(tsbench, path, runs):
    out = subprocess.run([tsbench, path, str(runs)], capture_output=True, text=True, check=True)
    best, result = out.stdout.split(None, 1)
    return float(best), result.strip()


def process(cmd, repeat=5):
    best_t, best_rss = 1e30, 0
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        t0 = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True)
        t = time.perf_counter() - t0
        rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        best_t = min(best_t, t)
        best_rss = max(best_rss, rss, before)
    return best_t, best_rss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tscript", default=os.path.join(HERE, "..", "tscript"))
    ap.add_argument("--tsbench", default=os.path.join(HERE, "tsbench"))
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    print(f"{'workload':10} {'pytorch':>12} {'tscript':>12} {'ratio':>8}")
    for name in ("loop", "sort", "dict"):
        path = os.path.join(WORK, name + ".py")
        pt, pres = torch_warm(path, a.runs)
        tt, tres = tscript_warm(a.tsbench, path, a.runs)
        same = "" if str(pres) == tres else f"  (results differ: {pres} vs {tres})"
        print(f"{name:10} {pt * 1e3:10.2f}ms {tt * 1e3:10.2f}ms {pt / tt:7.1f}x{same}")
    hello = os.path.join(WORK, "hello.py")
    pt, prss = process([sys.executable, "-c",
                        "import importlib.util, sys, torch; "
                        "s = importlib.util.spec_from_file_location('hello', sys.argv[1]); "
                        "m = importlib.util.module_from_spec(s); s.loader.exec_module(m); "
                        "torch.jit.script(m.main)()", hello], repeat=3)
    # a fresh child each time: ru_maxrss of children is the largest so far, so measure
    # tscript in a child of its own
    tt, trss = process_isolated([a.tscript, "run", hello])
    print(f"{'startup':10} {pt * 1e3:10.2f}ms {tt * 1e3:10.2f}ms {pt / tt:7.1f}x"
          f"   peak RSS: pytorch {prss / 1024:.0f} MB, tscript {trss / 1024:.1f} MB")


def process_isolated(cmd):
    """Times cmd in a grandchild so its max RSS is not mixed with PyTorch's."""
    code = ("import resource, subprocess, sys, time\n"
            "best = 1e30\n"
            "for _ in range(10):\n"
            "    t0 = time.perf_counter(); subprocess.run(sys.argv[1:], capture_output=True, check=True)\n"
            "    best = min(best, time.perf_counter() - t0)\n"
            "print(best, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    out = subprocess.run([sys.executable, "-c", code] + cmd, capture_output=True, text=True,
                         check=True)
    t, rss = out.stdout.split()
    return float(t), int(rss)


if __name__ == "__main__":
    main()
