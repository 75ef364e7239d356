#!/usr/bin/env python3
"""compare.py — the same TorchScript workloads through PyTorch 1.13 and tscript, in one run.

usage: bench/compare.py [--tscript PATH] [--tsbench PATH] [--baseline PATH] [--startup PATH]
                        [--runs N] [--rounds N] [--threads N]

Each workload in bench/workloads/ is a file with a main(); a file with inputs() gets main's
arguments from it (built once, untimed). PyTorch scripts main and times warm calls in this
process (best of N); tscript's bench/tsbench does the same in its own process. Both use the
same thread count (--threads, default all cores): torch.set_num_threads and
OPENBLAS_NUM_THREADS here, TSCRIPT_NUM_THREADS for tscript. On a busy machine --rounds
repeats everything and keeps each side's best.

The interpreter workloads and the LSTM cell print PyTorch's time over tscript's (above 1:
tscript is faster). The interpreter workloads are also timed as whole `tscript run FILE`
processes (startup, compiling and the run, best of N, by bench/startup) against PyTorch's
warm call: the "process" column, the ratio issue 13's targets are stated in. The 16M-element add and the 1024x1024 product are also held against
their floors, timed in C by bench/baseline: a memcpy of one operand's bytes and OpenBLAS's
own cblas_sgemm on the best core type (bench/sgemm.py says how it is found); those ratios
are tscript's time over the floor's. Startup is timed as
whole processes: `tscript run hello.py` against `python3 -c 'import torch;
torch.jit.script(main)()'`, with peak memory (max RSS). This is a benchmark, not a test: it
is never part of make check.
"""
import argparse
import os
import subprocess
import sys
import time

from sgemm import chosen_core, floor as sgemm_floor

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.path.join(HERE, "workloads")
WARMUP = 3              # PyTorch's profiling executor optimizes on the second call

# The CPU fuser's gain (issue 14): the LSTM cell with fuser-cpu (the default config) over
# the same run without it; name, inputs() arguments, target as text.
FUSER = [("lstm-b1", [2000, 1, 32, 32, 0], "unfused/fused >= 1.5"),
         ("lstm-b64", [10, 64, 256, 512, 0], "unfused/fused >= 1.0")]

# name, file, inputs() arguments, floor ("" none), target as text
INTERP = [("loop", "loop.py", []), ("sort", "sort.py", []), ("dict", "dict.py", []),
          ("fib", "fib.py", []), ("strings", "strings.py", [])]
TENSOR = [
    ("lstm-b64", "lstm.py", [10, 64, 256, 512, 0], "", "pytorch/tscript >= 1"),
    ("lstm-b1", "lstm.py", [2000, 1, 32, 32, 0], "", "pytorch/tscript >= 3"),
    ("add-16M", "add.py", [], "memcpy", "tscript/memcpy <= 1.3"),
    ("mm-1024", "mm.py", [], "sgemm", "tscript/sgemm <= 1.1"),
]


def load(path):
    """Imports a workload as a module (torch.jit.script reads functions' source files)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def timed(f, args):
    t0 = time.perf_counter()
    f(*args)
    return time.perf_counter() - t0


def torch_warm(path, ints, runs):
    import torch  # noqa: F401 (imported lazily: startup is measured separately)
    mod = load(path)
    args = mod.inputs(*ints) if hasattr(mod, "inputs") else ()
    f = torch.jit.script(mod.main)
    for _ in range(WARMUP):
        f(*args)
    best = min(timed(f, args) for _ in range(runs))
    return best, f(*args)


def tscript_warm(tsbench, path, ints, runs, env):
    cmd = [tsbench, path, str(runs)] + [str(i) for i in ints]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
    best, result = out.stdout.split(None, 1)
    return float(best), result.strip()


def baseline(path, threads, runs, core):
    """The floors: memcpy, and cblas_sgemm on the best core type (bench/sgemm.py's floor:
    OpenBLAS's own pick or tscript's, the faster)."""
    sgemm, _, memcpy = sgemm_floor(path, threads, runs, core)
    return {"memcpy": memcpy, "sgemm": sgemm}


def same_result(a, b):
    """Ints and strings exactly; floats to 1e-4 relative (BLAS sums in its own order)."""
    if isinstance(a, float):
        try:
            return abs(a - float(b)) <= 1e-4 * max(1.0, abs(a))
        except ValueError:
            return False
    return str(a) == b


def best_of_rounds(rounds, measure):
    """measure() -> (times dict, results); the best time of each key over the rounds."""
    best, results = {}, None
    for _ in range(rounds):
        times, results = measure()
        for k, t in times.items():
            best[k] = min(best.get(k, t), t)
    return best, results


def ms(t):
    return f"{t * 1e3:10.2f}ms"


def uninstalled(path):
    """In the build tree `tscript` is libtool's wrapper script, whose bash and sed cost more
    than tscript's own startup: the program itself, and the environment the wrapper sets."""
    real = os.path.join(os.path.dirname(path), ".libs", os.path.basename(path))
    with open(path, "rb") as f:
        if f.read(2) != b"#!" or not os.path.exists(real):
            return path, None
    libs = os.path.join(os.path.dirname(os.path.abspath(path)), ".libs")
    return real, dict(os.environ, LD_LIBRARY_PATH=libs)


def startup(helper, cmd, repeat):
    """Best wall time and peak RSS (KB) of cmd, timed by bench/startup: forked from Python,
    a small program's max RSS would be Python's (see startup.c)."""
    exe, env = uninstalled(cmd[0])
    out = subprocess.run([helper, str(repeat), exe] + cmd[1:], capture_output=True, text=True,
                         check=True, env=env)
    t, rss = out.stdout.split()
    return float(t), int(rss)


def process_isolated(cmd, repeat):
    """Times cmd (best of repeat) in a grandchild, so its max RSS is its own, not that of
    the workloads' processes before it."""
    code = ("import resource, subprocess, sys, time\n"
            "best = 1e30\n"
            f"for _ in range({repeat}):\n"
            "    t0 = time.perf_counter(); subprocess.run(sys.argv[1:], capture_output=True, check=True)\n"
            "    best = min(best, time.perf_counter() - t0)\n"
            "print(best, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    out = subprocess.run([sys.executable, "-c", code] + cmd, capture_output=True, text=True,
                         check=True)
    t, rss = out.stdout.split()
    return float(t), int(rss)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tscript", default=os.path.join(HERE, "..", "tscript"))
    ap.add_argument("--tsbench", default=os.path.join(HERE, "tsbench"))
    ap.add_argument("--baseline", default=os.path.join(HERE, "baseline"))
    ap.add_argument("--startup", default=os.path.join(HERE, "startup"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    a = ap.parse_args()
    # before torch loads: its OpenBLAS reads the variable once
    os.environ["OPENBLAS_NUM_THREADS"] = str(a.threads)
    import torch
    torch.set_num_threads(a.threads)
    env = dict(os.environ, TSCRIPT_NUM_THREADS=str(a.threads))
    print(f"threads: {a.threads} (PyTorch and OpenBLAS: {torch.get_num_threads()}; "
          f"tscript: TSCRIPT_NUM_THREADS={a.threads})")
    core, choice = chosen_core(a.tscript)
    print(f"tscript's OpenBLAS core: {core} ({choice})")
    print(f"{'workload':10} {'pytorch':>12} {'tscript':>12} {'ratio':>8} "
          f"{'process':>12} {'ratio':>8}")

    for name, file, ints in INTERP:
        path = os.path.join(WORK, file)
        (pt, pres), (tt, tres) = torch_warm(path, ints, a.runs), \
            tscript_warm(a.tsbench, path, ints, a.runs, env)
        wt, _ = startup(a.startup, [a.tscript, "run", path], a.runs)
        same = "" if same_result(pres, tres) else f"  (results differ: {pres} vs {tres})"
        print(f"{name:10} {ms(pt)} {ms(tt)} {pt / tt:7.1f}x {ms(wt)} {pt / wt:7.1f}x{same}")

    for name, file, ints, floor, target in TENSOR:
        path = os.path.join(WORK, file)

        def measure():
            pt, pres = torch_warm(path, ints, a.runs)
            tt, tres = tscript_warm(a.tsbench, path, ints, a.runs, env)
            times = {"pytorch": pt, "tscript": tt}
            if floor:
                times[floor] = baseline(a.baseline, a.threads, a.runs, core)[floor]
            return times, (pres, tres)
        t, (pres, tres) = best_of_rounds(a.rounds, measure)
        same = "" if same_result(pres, tres) else f"  (results differ: {pres} vs {tres})"
        line = f"{name:10} {ms(t['pytorch'])} {ms(t['tscript'])} " \
               f"{t['pytorch'] / t['tscript']:7.2f}x"
        if floor:
            line += f"   {floor} {t[floor] * 1e3:.2f}ms: tscript/{floor} " \
                    f"{t['tscript'] / t[floor]:.2f}"
        print(f"{line}   (target: {target}){same}")

    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as cfg:
        cfg.write("plugins: [prim, aten-cpu]\n")
    unfused_env = dict(env, TSCRIPT_CONFIG=cfg.name)
    path = os.path.join(WORK, "lstm.py")
    for name, ints, target in FUSER:
        def measure():
            ft, fres = tscript_warm(a.tsbench, path, ints, a.runs, env)
            ut, ures = tscript_warm(a.tsbench, path, ints, a.runs, unfused_env)
            return {"fused": ft, "unfused": ut}, (fres, ures)
        t, (fres, ures) = best_of_rounds(a.rounds, measure)
        same = "" if fres == ures else f"  (results differ: {fres} vs {ures})"
        print(f"{'fuser ' + name:16} fused {ms(t['fused'])} unfused {ms(t['unfused'])} "
              f"{t['unfused'] / t['fused']:7.2f}x   (target: {target}){same}")
    os.unlink(cfg.name)

    hello = os.path.join(WORK, "hello.py")
    pt, prss = process_isolated([sys.executable, "-c",
                                 "import importlib.util, sys, torch; "
                                 "s = importlib.util.spec_from_file_location('hello', "
                                 "sys.argv[1]); m = importlib.util.module_from_spec(s); "
                                 "s.loader.exec_module(m); torch.jit.script(m.main)()", hello],
                                3)
    tt, trss = startup(a.startup, [a.tscript, "run", hello], 20)
    print(f"{'startup':10} {ms(pt)} {ms(tt)} {pt / tt:7.1f}x"
          f"   peak RSS: pytorch {prss / 1024:.0f} MB, tscript {trss / 1024:.1f} MB")


if __name__ == "__main__":
    main()
