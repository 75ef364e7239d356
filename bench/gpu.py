#!/usr/bin/env python3
"""gpu.py — the GPU workloads through PyTorch and tscript (aten-cuda, fuser-cuda), in one run.

usage: bench/gpu.py [--tsbench PATH] [--runs N]

Run on a machine with an NVIDIA GPU and a CUDA build of PyTorch (the device machines have
torch 2.11 + CUDA 13), from the top of the source tree, with tscript built (or unpacked by
t/gpu/check.sh). Each workload in bench/workloads/gpu/ (and the LSTM cell of
bench/workloads/lstm.py, told cuda=1) makes its tensors on cuda in inputs() (untimed) and reads a number back at the end of main(), so a timed call ends when
the GPU is done. PyTorch scripts main and times warm calls in this process (best of N, no
TF32); tscript's bench/tsbench does the same with TSCRIPT_CONFIG naming a config that loads
aten-cuda and fuser-cuda. Prints each side's figure, PyTorch's over tscript's, and issue
14's target. A benchmark, not a test.
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from compare import load, timed, WARMUP  # noqa: E402

WORK = os.path.join(HERE, "workloads", "gpu")

# name, file, inputs() arguments, units per call, unit, how a figure reads, fused, target.
# The tiny op and the add measure one operator each: neither side fuses them (a fuser would
# merge the unrolled chain of adds into one kernel and time something else).
WORKLOADS = [
    ("lstm-b64", "../lstm.py", [200, 64, 256, 512, 1], 200, "us/step", "time", True,
     "tscript <= 43 us"),
    ("lstm-b1", "../lstm.py", [2000, 1, 32, 32, 1], 2000, "us/step", "time", True,
     "tscript <= 15 us"),
    ("tiny-op", "tiny.py", [2000], 2000, "us/op", "time", False, "tscript <= 4 us"),
    ("add-16M", "add.py", [], 10 * 3 * 4 * 16 * 1024 * 1024 / 1e12, "TB/s", "rate", False,
     "tscript >= 2.6 TB/s"),
    ("sgemm-4096", "mm.py", [], 5 * 2 * 4096 ** 3 / 1e12, "TFLOP/s", "rate", True,
     "tscript >= cuBLAS (51.5 TFLOP/s)"),
]

CONFIG = {True: "plugins: [prim, aten-cpu, aten-cuda, fuser-cuda]\n",
          False: "plugins: [prim, aten-cpu, aten-cuda]\n"}


def torch_best(path, ints, runs, fused):
    import contextlib
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    mod = load(path)
    args = mod.inputs(*ints)
    with contextlib.nullcontext() if fused else torch.jit.fuser("none"):
        f = torch.jit.script(mod.main)
        for _ in range(WARMUP):
            f(*args)
        return min(timed(f, args) for _ in range(runs))


def tscript_best(tsbench, path, ints, runs, env):
    cmd = [tsbench, path, str(runs)] + [str(i) for i in ints]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip() or out.stdout.strip())
    return float(out.stdout.split(None, 1)[0])


def figure(seconds, units, kind):
    return seconds / units * 1e6 if kind == "time" else units / seconds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tsbench", default=os.path.join(HERE, "tsbench"))
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    envs = {}
    for fused, text in CONFIG.items():
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as cfg:
            cfg.write(text)
        envs[fused] = dict(os.environ, TSCRIPT_CONFIG=cfg.name)
    print(f"{'workload':12} {'pytorch':>12} {'tscript':>12} {'unit':8} {'pt/ts':>7}  target")
    failed = 0
    for name, file, ints, units, unit, kind, fused, target in WORKLOADS:
        path = os.path.join(WORK, file)
        pt = ts = None
        try:
            pt = figure(torch_best(path, ints, a.runs, fused), units, kind)
        except Exception as e:  # noqa: BLE001 (a workload's failure is reported, not fatal)
            print(f"{name:12} pytorch failed: {e}")
            failed += 1
        try:
            ts = figure(tscript_best(a.tsbench, path, ints, a.runs, envs[fused]), units, kind)
        except Exception as e:  # noqa: BLE001
            lines = str(e).splitlines() or [""]
            print(f"{name:12} tscript failed: {lines[-1]}")
            for line in lines[-12:-1]:
                print(f"{'':12} {line}")
            failed += 1
        if pt is None or ts is None:
            shown = [f"{v:12.2f}" if v is not None else f"{'-':>12}" for v in (pt, ts)]
            print(f"{name:12} {shown[0]} {shown[1]} {unit:8} {'-':>7}  {target}")
            continue
        ratio = pt / ts if kind == "time" else ts / pt
        print(f"{name:12} {pt:12.2f} {ts:12.2f} {unit:8} {ratio:7.2f}  {target}")
    for env in envs.values():
        os.unlink(env["TSCRIPT_CONFIG"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
