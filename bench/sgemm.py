#!/usr/bin/env python3
"""sgemm.py — a 1024x1024x1024 float32 product through tscript against OpenBLAS's own
cblas_sgemm on its best core type, at 1 and 2 threads (issue 15: within 10%).

usage: bench/sgemm.py [--tscript PATH] [--tsbench PATH] [--baseline PATH] [--runs N]
                      [--rounds N] [--threads 1,2]

tscript runs bench/workloads/mm.py in process (bench/tsbench, best of N warm calls) on the
core type aten-cpu chose, which `tscript info --backend` reports. The floor is
bench/baseline's cblas_sgemm, linked to the same OpenBLAS, best of N, run once on the core
type OpenBLAS picks itself and once with OPENBLAS_CORETYPE set to tscript's: the faster is
the best core this CPU runs (tscript's choice is the best its feature bits allow; where
OpenBLAS misjudges the CPU, its own pick is the slow one). Both sides get the same thread
count (TSCRIPT_NUM_THREADS; baseline's argument). Needs no PyTorch; bench/compare.py holds
its mm-1024 line against the same floor. A benchmark, never part of make check.
"""
import argparse
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
MM = os.path.join(HERE, "workloads", "mm.py")


def baseline(path, threads, runs, core=None):
    """bench/baseline's lines: {"memcpy": s, "sgemm": s, "core": name}, on core when given."""
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)
    if core:
        env["OPENBLAS_CORETYPE"] = core
    out = subprocess.run([path, str(threads), str(runs)], capture_output=True, text=True,
                         check=True, env=env)
    lines = dict(line.split(None, 1) for line in out.stdout.splitlines())
    return {k: v.strip() if k == "core" else float(v) for k, v in lines.items()}


def chosen_core(tscript):
    """The core type tscript's OpenBLAS runs, and why, from `tscript info --backend`."""
    out = subprocess.run([tscript, "info", "--backend"], capture_output=True, text=True,
                         check=True).stdout
    field = {}
    for line in out.splitlines():
        parts = line.strip().split(None, 1)
        if len(parts) == 2 and parts[0] in ("core", "choice"):
            field[parts[0]] = parts[1]
    return field.get("core"), field.get("choice", "")


def floor(path, threads, runs, core):
    """The best cblas_sgemm time over OpenBLAS's own pick and core: (seconds, core, memcpy)."""
    own = baseline(path, threads, runs)
    best = own
    if core and core.lower() != own["core"].lower():
        forced = baseline(path, threads, runs, core)
        best = min(own, forced, key=lambda r: r["sgemm"])
    return best["sgemm"], best["core"], own["memcpy"]


def tscript_mm(tsbench, threads, runs):
    env = dict(os.environ, TSCRIPT_NUM_THREADS=str(threads))
    env.pop("OPENBLAS_CORETYPE", None)
    out = subprocess.run([tsbench, MM, str(runs)], capture_output=True, text=True, check=True,
                         env=env)
    return float(out.stdout.split()[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tscript", default=os.path.join(HERE, "..", "tscript"))
    ap.add_argument("--tsbench", default=os.path.join(HERE, "tsbench"))
    ap.add_argument("--baseline", default=os.path.join(HERE, "baseline"))
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", default="1,2")
    a = ap.parse_args()
    core, choice = chosen_core(a.tscript)
    print(f"tscript's OpenBLAS core: {core} ({choice})")
    for threads in (int(t) for t in a.threads.split(",")):
        tt = fl = None
        for _ in range(a.rounds):        # interleaved: a busy machine slows both alike
            t = tscript_mm(a.tsbench, threads, a.runs)
            f, fcore, _ = floor(a.baseline, threads, a.runs, core)
            tt = t if tt is None else min(tt, t)
            if fl is None or f < fl[0]:
                fl = (f, fcore)
        gflops = 2 * 1024 ** 3 / 1e9
        print(f"sgemm-1024 threads {threads}: tscript {tt * 1e3:.2f} ms "
              f"({gflops / tt:.1f} GFLOP/s), cblas_sgemm on {fl[1]} {fl[0] * 1e3:.2f} ms "
              f"({gflops / fl[0]:.1f} GFLOP/s): tscript/sgemm {tt / fl[0]:.3f} "
              f"(target <= 1.1)")


if __name__ == "__main__":
    main()
