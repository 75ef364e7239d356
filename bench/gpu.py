#!/usr/bin/env python3
"""gpu.py — the GPU workloads through PyTorch and tscript (aten-cuda, fuser-cuda), in one run.

usage: bench/gpu.py [--tsbench PATH] [--runs N]

Run on a machine with an NVIDIA GPU and a CUDA build of PyTorch (the device machines have
torch 2.11 + CUDA 13), from the top of the source tree, with tscript built (or unpacked by
t/gpu/check.sh). Each workload in bench/workloads/gpu/ (and the LSTM cell of
bench/workloads/lstm.py, told cuda=1) makes its tensors on cuda in inputs() (untimed) and reads a number back at the end of main(), so a timed call ends when
the GPU is done. PyTorch scripts main and times warm calls in this process (best of N, no
TF32); tscript's bench/tsbench does the same with TSCRIPT_CONFIG naming a config that loads
aten-cuda (and fuser-cuda, and cuda_graphs: true, as the workload's mode says). The graph
rows time PyTorch's scripted cell captured by hand into a CUDA graph instead. Prints each
side's figure, PyTorch's over tscript's, and issue 14's target. A benchmark, not a test.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from compare import load, timed, WARMUP  # noqa: E402

WORK = os.path.join(HERE, "workloads", "gpu")

# name, file, inputs() arguments, units per call, unit, how a figure reads, mode, target.
# mode: "fused" (fuser-cuda on), "plain" (no fuser on either side: the tiny op and the add
# measure one operator each, and a fuser would merge the unrolled chain of adds into one
# kernel and time something else), or "graphs" (tscript with cuda_graphs: true against
# PyTorch's scripted cell captured by hand into a CUDA graph and replayed per step).
WORKLOADS = [
    ("lstm-b64", "../lstm.py", [200, 64, 256, 512, 1], 200, "us/step", "time", "fused",
     "tscript <= 43 us"),
    ("lstm-b1", "../lstm.py", [2000, 1, 32, 32, 1], 2000, "us/step", "time", "fused",
     "tscript <= 15 us"),
    ("graph-b64", "../lstm.py", [200, 64, 256, 512, 1], 200, "us/step", "time", "graphs",
     "tscript <= 22.2 us"),
    ("graph-b1", "../lstm.py", [2000, 1, 32, 32, 1], 2000, "us/step", "time", "graphs",
     "tscript <= 7.8 us"),
    ("tiny-op", "tiny.py", [2000], 2000, "us/op", "time", "plain", "tscript <= 4 us"),
    ("add-16M", "add.py", [], 10 * 3 * 4 * 16 * 1024 * 1024 / 1e12, "TB/s", "rate", "plain",
     "tscript >= 2.6 TB/s"),
    ("sgemm-4096", "mm.py", [], 5 * 2 * 4096 ** 3 / 1e12, "TFLOP/s", "rate", "fused",
     "tscript >= cuBLAS (51.5 TFLOP/s)"),
]

CONFIG = {"fused": "plugins: [prim, aten-cpu, aten-cuda, fuser-cuda]\n",
          "plain": "plugins: [prim, aten-cpu, aten-cuda]\n",
          "graphs": "plugins: [prim, aten-cpu, aten-cuda, fuser-cuda]\ncuda_graphs: true\n"}


def torch_graph_cell(path, ints, runs):
    """PyTorch's scripted cell, one step captured by hand into a CUDA graph (state copied
    back inside it), replayed once per step."""
    import torch
    mod = load(path)
    xs, hx, cx, w_ih, w_hh, b_ih, b_hh = mod.inputs(*ints)
    cell = torch.jit.script(mod.cell)
    x, h, c = xs[0].clone(), hx.clone(), cx.clone()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            hy, cy = cell(x, h, c, w_ih, w_hh, b_ih, b_hh)
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        hy, cy = cell(x, h, c, w_ih, w_hh, b_ih, b_hh)
        h.copy_(hy)
        c.copy_(cy)
    steps = xs.size(0)
    best = None
    for _ in range(runs + WARMUP):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(steps):
            g.replay()
        float(h.sum())
        t = time.perf_counter() - t0
        best = t if best is None else min(best, t)
    return best
def torch_best(path, ints, runs, mode):
    import contextlib
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    if mode == "graphs":
        return torch_graph_cell(path, ints, runs)
    mod = load(path)
    args = mod.inputs(*ints)
    with torch.jit.fuser("none") if mode == "plain" else contextlib.nullcontext():
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
    for mode, text in CONFIG.items():
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as cfg:
            cfg.write(text)
        envs[mode] = dict(os.environ, TSCRIPT_CONFIG=cfg.name)
    print(f"{'workload':12} {'pytorch':>12} {'tscript':>12} {'unit':8} {'pt/ts':>7}  target")
    failed = 0
    for name, file, ints, units, unit, kind, mode, target in WORKLOADS:
        path = os.path.join(WORK, file)
        pt = ts = None
        try:
            pt = figure(torch_best(path, ints, a.runs, mode), units, kind)
        except Exception as e:  # noqa: BLE001 (a workload's failure is reported, not fatal)
            print(f"{name:12} pytorch failed: {e}")
            failed += 1
        try:
            ts = figure(tscript_best(a.tsbench, path, ints, a.runs, envs[mode]), units, kind)
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
